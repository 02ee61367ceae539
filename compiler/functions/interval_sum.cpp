// SUM and AVG of INTERVAL (PostgreSQL): the parts add apart, so SUM('1 mon', '40 days') is
// '1 mon 40 days'; AVG is that sum divided by the count with interval / number's rules
// ('1 mon' and '2 mons' average to '1 mon 15 days'). A running sum past 32-bit months or
// days is "interval out of range", as in PostgreSQL. The CPU engine's alone: no device final.
#include "compiler/common/interval_math.h"
#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/host_state_ops.h"

namespace tally::aggregates {

namespace {

// The running sum lives in `extreme`, NULL until the first value.
void add_to(HostAggState& s, const Value& v) {
  if (s.extreme.null) {
    s.extreme = v;
    return;
  }
  auto sum = add_intervals(as_interval(s.extreme), as_interval(v));
  if (!sum) overflow("interval");
  s.extreme = interval_value(*sum);
}

void update(HostAggState& s, const Value& v, const AggContext&) {
  ++s.count;
  add_to(s, v);
}

void combine(HostAggState& into, const HostAggState& from, const AggContext&) {
  into.count += from.count;
  if (!from.extreme.null) add_to(into, from.extreme);
}

Value final_sum(const HostAggState& s, const AggContext&) { return s.extreme; }

Value final_average(const HostAggState& s, const AggContext&) {
  if (s.count == 0) return Value();
  auto mean = divide_interval(as_interval(s.extreme), static_cast<double>(s.count));
  if (!mean) overflow("interval");
  return interval_value(*mean);
}

}  // namespace

const StateInfo kSumIntervalState = {StateKind::SumInterval,
                                     "SumInterval",
                                     {FieldKind::Count},
                                     SumGrowth::None,
                                     false,
                                     update,
                                     combine,
                                     final_sum,
                                     nullptr};
const StateInfo kAvgIntervalState = {StateKind::AvgInterval,
                                     "AvgInterval",
                                     {FieldKind::Count},
                                     SumGrowth::None,
                                     false,
                                     update,
                                     combine,
                                     final_average,
                                     nullptr};

}  // namespace tally::aggregates
