// MODE(x) (DuckDB) and MODE() WITHIN GROUP (ORDER BY x) (PostgreSQL): the most frequent
// value of the group, NULLs skipped, NULL over none. Ties go to the first value in sort
// order: the least, or with WITHIN GROUP (ORDER BY x DESC) the greatest (PostgreSQL takes
// the first of its sorted input; DuckDB's pick among ties is unspecified).
#include "compiler/common/value_ops.h"
#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/value_lists.h"

namespace tally::aggregates {

namespace {

Value final(const HostAggState& s, const AggContext& ctx) {
  const std::vector<Value> sorted = sorted_values(s, ctx);
  Value best;
  size_t best_count = 0;
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i + 1;
    while (j < sorted.size() && compare_values(sorted[i], sorted[j], ctx.arg, ctx.strings) == 0) {
      ++j;
    }
    if (j - i > best_count) {
      best = sorted[i];
      best_count = j - i;
    }
    i = j;
  }
  return best;
}

AggregateTyping typing(const Type& arg) {
  if (arg.id == TypeId::Null) return {std::nullopt, "the argument type is unknown"};
  return {arg, nullptr};
}

StateKind state(const Type&) { return StateKind::Mode; }

}  // namespace

const StateInfo kModeState = {StateKind::Mode, "Mode", {FieldKind::Count},
                              SumGrowth::None, true,   update_list,
                              combine_lists,   final,  nullptr,
                              nullptr,         true};

// Every value counts once under DISTINCT, so DISTINCT changes the answer: not supported.
const AggregateFunction kMode = {
    AggKind::Mode, "MODE",  {"MODE"},       DistinctRule::Rejected,   typing,
    state,         nullptr, AggExtra::None, WithinGroupRule::Accepted};

}  // namespace tally::aggregates
