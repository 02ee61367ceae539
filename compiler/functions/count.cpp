// COUNT(*) and COUNT(x): a count of rows, or of non-NULL values.
#include <fmt/format.h>

#include "compiler/common/error.h"
#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/host_state_ops.h"

namespace tally::aggregates {

namespace {

void update(HostAggState& s, const Value&, const AggContext&) { ++s.count; }

Value final(const HostAggState& s, const AggContext&) { return Value::from_int(s.count); }

std::string device_final(const DeviceFinal& d) {
  return fmt::format("    {} = (i128)(i64){}; {} = 0;\n", d.out, d.fields[0], d.null);
}

// The bits of CountDistinctBits: the number of distinct values seen.
std::string device_bits_final(const DeviceFinal& d) {
  return fmt::format("    {} = (i128)__popcll((u64){}); {} = 0;\n", d.out, d.fields[0], d.null);
}

// The GPU plans CountDistinctBits, and its DISTINCT states never reach the host (the plan
// emits no states for DISTINCT: compiler/plan/partial_states.h).
void device_only_update(HostAggState&, const Value&, const AggContext&) {
  throw Error(ErrorKind::Internal, "COUNT(DISTINCT)'s bit set has no host state");
}

AggregateTyping bigint(const Type&) { return {Type::bigint(), nullptr}; }
StateKind count_state(const Type&) { return StateKind::Count; }

}  // namespace

const StateInfo kCountState = {StateKind::Count, "Count", {FieldKind::Count},
                               SumGrowth::None,  false,   update,
                               combine_sums,     final,   device_final};

const StateInfo kCountDistinctBitsState = {StateKind::CountDistinctBits,
                                           "CountDistinctBits",
                                           {FieldKind::DistinctBits},
                                           SumGrowth::None,
                                           false,
                                           device_only_update,
                                           combine_sums,
                                           final,
                                           device_bits_final};

const AggregateFunction kCountStar = {AggKind::CountStar,     "COUNT", {},
                                      DistinctRule::Rejected, bigint,  count_state};
const AggregateFunction kCount = {AggKind::Count,         "COUNT", {"COUNT"},
                                  DistinctRule::Accepted, bigint,  count_state};

}  // namespace tally::aggregates
