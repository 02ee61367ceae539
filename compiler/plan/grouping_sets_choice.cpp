#include "compiler/plan/grouping_sets_choice.h"

#include <fmt/format.h>

#include <algorithm>

namespace tally {

namespace {

// Thread and block tables live in registers or shared memory; direct and hash slots (block
// cache or not) take global atomics.
bool on_chip(const GpuPlan& plan) {
  return plan.strategy == GpuStrategy::ThreadPrivate || plan.strategy == GpuStrategy::Block;
}

// A one pass in Block slices reads every row once a slice and merges a group per set each
// time: measured on an H100 (SF 10), ROLLUP (l_shipdate, l_returnflag) in 2 slices took
// 8.0 ms where a pass per set took 3.6.
bool one_pass_on_chip(const GpuPlan& plan) { return on_chip(plan) && !plan.sliced(); }

std::string domain_text(const GpuPlan& plan) {
  const std::optional<uint64_t> domain = plan_key_domain(plan);
  return domain ? fmt::format("key domain {}", *domain) : "keys hashed by value";
}

// A pass's time from the profile, in ms: its rows over the rate measured for its strategy at
// its key domain (one merge a row), times `merges` merges a row; nullopt where the profile has
// no such rate.
std::optional<double> estimated_ms(const GpuPlan& plan, const StrategyRates& rates,
                                   uint64_t merges) {
  const std::optional<uint64_t> domain = plan_key_domain(plan);
  if (!domain) return std::nullopt;
  const std::optional<double> rate = rates.rate(strategy_name(plan.strategy), *domain);
  if (!rate) return std::nullopt;
  return static_cast<double>(plan.rows * merges) / *rate * 1e3;
}

// The one pass merges each row into one group per set. Global atomics bound a direct or hash
// scan (their measured rates are far below the read's), so each merge costs what one row did
// when calibrated; thread and block scans are bound by the read, which one pass does once.
uint64_t one_pass_merges(const GpuPlan& one_pass, size_t sets) {
  return one_pass_on_chip(one_pass) ? 1 : std::max<uint64_t>(sets, 1);
}

// A pass's line in --explain: "  set 1: thread, key domain 4[, about 0.123 ms ...]".
std::string pass_line(const std::string& name, const GpuPlan& plan, const std::optional<double>& ms,
                      uint64_t merges) {
  std::string estimate;
  if (ms) {
    estimate = merges > 1
                   ? fmt::format(", about {:.3f} ms (device profile, {} merges a row)", *ms, merges)
                   : fmt::format(", about {:.3f} ms (device profile)", *ms);
  }
  return fmt::format("  {}: {}, {}{}\n", name, strategy_name(plan.strategy), domain_text(plan),
                     estimate);
}

// Both ways' times summed over their passes, or nullopt where some pass has no estimate. A
// profile measured on many more rows than these says little of them (calibrated_choice.h).
struct Estimates {
  std::optional<double> one_pass;
  std::vector<std::optional<double>> sets;
  bool complete = false;
  double per_set = 0;
};
Estimates estimate_ways(const GpuPlan& one_pass, const std::vector<GpuPlan>& sets,
                        const StrategyRates* rates) {
  Estimates e;
  e.sets.resize(sets.size());
  if (!rates || one_pass.rows < rates->rows / 16) return e;
  e.one_pass = estimated_ms(one_pass, *rates, one_pass_merges(one_pass, sets.size()));
  e.complete = e.one_pass.has_value();
  for (size_t s = 0; s < sets.size(); ++s) {
    e.sets[s] = estimated_ms(sets[s], *rates, 1);
    e.complete = e.complete && e.sets[s].has_value();
    e.per_set += e.sets[s].value_or(0);
  }
  return e;
}

// The built-in rule, fitted to the H100 measurements in the header's comment.
GroupingSetsChoice rule_choice(const GpuPlan& one_pass, const std::vector<GpuPlan>& sets) {
  GroupingSetsChoice choice;
  if (one_pass_on_chip(one_pass)) {
    choice.reason = fmt::format("the one-pass plan keeps its groups on chip: {}, {}",
                                strategy_name(one_pass.strategy), domain_text(one_pass));
    return choice;
  }
  for (size_t s = 0; s < sets.size(); ++s) {
    if (!on_chip(sets[s])) continue;
    choice.one_pass = false;
    choice.reason = fmt::format(
        "the one-pass plan keeps its groups in global memory or in slices: {}, {}; set {}'s "
        "plan keeps its own on chip: {}",
        strategy_name(one_pass.strategy), domain_text(one_pass), s,
        strategy_name(sets[s].strategy));
    return choice;
  }
  choice.reason = fmt::format(
      "no set's plan keeps its groups on chip either, and one pass, {}, reads the rows once",
      strategy_name(one_pass.strategy));
  return choice;
}

}  // namespace

std::optional<uint64_t> plan_key_domain(const GpuPlan& plan) {
  uint64_t product = 1;
  for (const KeyEncoding& k : plan.keys) {
    if (!k.bounded) return std::nullopt;
    if (k.radix() != 0 && product > UINT64_MAX / k.radix()) return std::nullopt;
    product *= k.radix();
  }
  return product;
}

GroupingSetsChoice choose_grouping_sets_way(const GpuPlan& one_pass,
                                            const std::vector<GpuPlan>& sets,
                                            const StrategyRates* rates) {
  const Estimates e = estimate_ways(one_pass, sets, rates);
  GroupingSetsChoice choice;
  if (e.complete) {
    choice.one_pass = *e.one_pass <= e.per_set;
    choice.reason = fmt::format(
        "the device profile of {} estimates one pass at {:.3f} ms and a pass per set at {:.3f} "
        "ms",
        rates->device, *e.one_pass, e.per_set);
  } else {
    choice = rule_choice(one_pass, sets);
  }
  choice.ways = pass_line("one pass", one_pass, e.one_pass, one_pass_merges(one_pass, sets.size()));
  for (size_t s = 0; s < sets.size(); ++s) {
    choice.ways += pass_line(fmt::format("set {}", s), sets[s], e.sets[s], 1);
  }
  return choice;
}

}  // namespace tally
