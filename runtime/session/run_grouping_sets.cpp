// GROUPING SETS, ROLLUP and CUBE. On the GPU, one pass over the rows merges each row into one
// group per set (compiler/ir/grouping_sets.h: the set id is a key); each set's groups are
// then read back as that set's own GROUP BY. Otherwise, where one pass does not apply, and
// where `auto` finds the plans favour it (compiler/plan/grouping_sets_choice.h), one ordinary
// GROUP BY per set, each on the engine the options choose. Either way each set's groups are
// exact, and the union of their rows is sorted, made distinct and limited as the query says.
#include <fmt/format.h>

#include "compiler/ir/grouping_sets.h"
#include "runtime/compile/grouping_sets_plans.h"
#include "runtime/cuda/device.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/gpu/multi_gpu.h"
#include "runtime/result/result_builder.h"
#include "runtime/session/database.h"

namespace tally {

namespace {

// Why the sets run one GROUP BY each rather than in one pass; empty when one pass applies.
std::string why_per_set(const BoundSelect& query, const TablePtr& input,
                        const ExecOptions& options) {
  if (options.grouping_sets == "per_set") return "SET grouping_sets = 'per_set'";
  if (query.grouping_sets.size() < 2) return "a single grouping set";
  if (options.device == DeviceChoice::Cpu) return "the CPU engine runs one GROUP BY per set";
  if (!input) return "a query without FROM";
  if (options.coprocess) return "co-processing runs the CPU engine on part of the rows";
  if (options.device == DeviceChoice::Auto) {
    if (std::optional<std::string> why_not = cuda::why_gpu_unusable()) return *why_not;
  }
  return "";
}

void add_notice(StatementOutcome& outcome, const std::string& notice) {
  if (notice.empty() || outcome.notice.find(notice) != std::string::npos) return;
  outcome.notice += (outcome.notice.empty() ? "" : "; ") + notice;
}

}  // namespace

void Database::run_grouping_sets(const BoundSelect& query, const TablePtr& input,
                                 const std::vector<Value>& parameters,
                                 const std::shared_ptr<StringHeap>& strings,
                                 const ExecOptions& options, StatementOutcome& outcome) {
  std::string why = why_per_set(query, input, options);
  std::vector<std::vector<Value>> rows;
  bool one_pass = why.empty();
  GroupingSetsChoice choice;  // auto's, where it chose: for --explain
  if (one_pass && options.grouping_sets == "auto") {
    choice = choose_grouping_sets(query, input, parameters, options);
    one_pass = choice.one_pass;
    if (!one_pass) why = choice.reason;
  }
  if (one_pass) {
    try {
      rows = run_sets_in_one_pass(query, input, parameters, strings, options, outcome);
    } catch (const Error& e) {
      // A plan one pass cannot take (say, keys too wide beside the set id) runs per set,
      // unless one pass was asked for.
      if (e.kind() != ErrorKind::Unsupported || options.grouping_sets == "one_pass") throw;
      why = e.what();
      one_pass = false;
    }
  }
  if (!one_pass) {
    rows = run_sets_one_by_one(query, input, parameters, strings, options, outcome);
    // Under auto the GPU ran every set apart: say why.
    if (options.grouping_sets == "auto" && outcome.result &&
        outcome.result->device.rfind("gpu", 0) == 0) {
      add_notice(outcome, "grouping sets ran one GROUP BY pass per set: " + why);
    }
  }
  if (options.explain) {
    outcome.explain +=
        one_pass ? fmt::format(
                       "grouping sets ran: {} sets in one pass over the rows on the GPU "
                       "(the set id is the last key){}\n",
                       query.grouping_sets.size(),
                       choice.reason.empty() ? "" : "; auto chose it: " + choice.reason)
                 : fmt::format("grouping sets ran: one GROUP BY pass per set ({})\n", why);
    outcome.explain += choice.ways;
  }
  std::string device = outcome.result ? outcome.result->device : "cpu";
  outcome.result = finish_result(query, std::move(rows), parameters, strings);
  outcome.result->device = device;
}

GroupingSetsChoice Database::choose_grouping_sets(const BoundSelect& query, const TablePtr& input,
                                                  const std::vector<Value>& parameters,
                                                  const ExecOptions& options) {
  // Planned for the GPU that runs the sets: its limits and device profile.
  const std::vector<int> ordinals = device_ordinals(options.devices);
  const std::shared_ptr<GpuEngine> engine = ordinals.empty() ? gpu() : gpus(ordinals)[0];
  GpuCompileOptions planning;
  planning.strategy = strategy_from_name(options.strategy);
  planning.hash_capacity = options.hash_capacity;
  planning.limits = engine->limits();
  planning.parameters = &parameters;
  planning.table = input.get();
  return plan_grouping_sets_way(query, *input, planning);
}

std::vector<std::vector<Value>> Database::run_sets_in_one_pass(
    const BoundSelect& query, const TablePtr& input, const std::vector<Value>& parameters,
    const std::shared_ptr<StringHeap>& strings, const ExecOptions& options,
    StatementOutcome& outcome) {
  ExecOptions on_gpu = options;
  on_gpu.device = DeviceChoice::Gpu;  // an Unsupported plan comes back here, not to the CPU
  StatementOutcome pass;
  run_engine(one_pass_grouping_query(query), input, parameters, strings, on_gpu, nullptr, pass);
  const std::vector<SetGroups> groups = one_pass_set_groups(query, pass.result->rows.to_vectors());
  const std::vector<BoundSelect> sets = split_grouping_sets(query);
  std::vector<std::vector<Value>> rows;
  for (size_t s = 0; s < sets.size(); ++s) {
    std::vector<std::vector<Value>> part;
    if (groups[s].keys.empty() && sets[s].group_keys.empty()) {
      // No row passed the filter, yet the empty set still has its one group: its aggregates
      // over no rows, which the CPU engine gives from an empty table.
      ExecOptions on_cpu = options;
      on_cpu.device = DeviceChoice::Cpu;
      StatementOutcome empty;
      run_engine(sets[s], make_empty_table(input->schema), parameters, strings, on_cpu, nullptr,
                 empty);
      part = empty.result->rows.to_vectors();
    } else {
      const GroupRows set_groups{groups[s].keys, groups[s].aggregates};
      part = evaluate_group_outputs(sets[s], set_groups, parameters, strings.get()).to_vectors();
    }
    for (auto& row : part) rows.push_back(std::move(row));
  }
  outcome.explain += pass.explain;
  outcome.timings.gpu = pass.timings.gpu;
  outcome.cuda = pass.cuda;
  add_notice(outcome, pass.notice);
  outcome.result = std::move(pass.result);
  return rows;
}

std::vector<std::vector<Value>> Database::run_sets_one_by_one(
    const BoundSelect& query, const TablePtr& input, const std::vector<Value>& parameters,
    const std::shared_ptr<StringHeap>& strings, const ExecOptions& options,
    StatementOutcome& outcome) {
  std::vector<std::vector<Value>> rows;
  std::string device;  // the engine of every set ("cpu", "gpu: ..."), or each named once
  const std::vector<BoundSelect> sets = split_grouping_sets(query);
  for (size_t s = 0; s < sets.size(); ++s) {
    StatementOutcome part;
    // Each set is its own query: no prepared plan cache, whose plans are for one query.
    run_engine(sets[s], input, parameters, strings, options, nullptr, part);
    for (const auto row : part.result->rows) rows.push_back(row.values());
    if (device.find(part.result->device) == std::string::npos) {
      device += (device.empty() ? "" : " and ") + part.result->device;
    }
    if (!part.timings.gpu.empty()) {
      outcome.timings.gpu += fmt::format("{}set {}: {}", s ? "\n" : "", s, part.timings.gpu);
    }
    // The engine's choice is the same for every set but may differ (a set the GPU does
    // not take): each notice once.
    add_notice(outcome, part.notice);
    if (options.explain) outcome.explain += part.explain;
  }
  outcome.result = Result();
  outcome.result->device = device;
  return rows;
}

}  // namespace tally
