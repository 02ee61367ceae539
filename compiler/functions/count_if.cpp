// COUNT_IF(b) (DuckDB): how many non-NULL values are true, BIGINT, 0 over no rows. The state
// is a count and the exact sum of the booleans (true is 1), so both engines keep it with
// the fields SUM uses.
#include <fmt/format.h>

#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/host_state_ops.h"

namespace tally::aggregates {

namespace {

Value final(const HostAggState& s, const AggContext&) {
  return Value::from_int(static_cast<int64_t>(s.sum));
}

std::string device_final(const DeviceFinal& d) {
  return fmt::format("    {} = (i128)(i64){}; {} = 0;\n", d.out, d.fields[1], d.null);
}

AggregateTyping typing(const Type& arg) {
  if (arg.id == TypeId::Boolean) return {Type::bigint(), nullptr};
  return {std::nullopt, "the argument must be BOOLEAN"};
}

StateKind state(const Type&) { return StateKind::CountIf; }

}  // namespace

const StateInfo kCountIfState = {
    StateKind::CountIf, "CountIf", {FieldKind::Count, FieldKind::SumI128},
    SumGrowth::Linear,  false,     update_exact_sum,
    combine_sums,       final,     device_final};

const AggregateFunction kCountIf = {AggKind::CountIf,       "COUNT_IF", {"COUNT_IF"},
                                    DistinctRule::Rejected, typing,     state};

}  // namespace tally::aggregates
