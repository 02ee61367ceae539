// LAST(x), and FIRST(x ORDER BY ...) / LAST(x ORDER BY ...): the value of the first (last)
// row in the call's order. NULL values are skipped, as tally's FIRST and ANY_VALUE skip
// them (DuckDB's FIRST keeps a NULL). Rows that tie on the ORDER BY keys go by value: FIRST
// takes the least, LAST the greatest. Without ORDER BY, rows have no order on any engine:
// LAST keeps the greatest value as FIRST keeps the least (any_value.cpp).
#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/value_lists.h"

namespace tally::aggregates {

namespace {

template <bool Last>
Value final(const HostAggState& s, const AggContext& ctx) {
  if (s.values.empty()) return Value::make_null();
  const std::vector<size_t> positions = ordered_positions(s, ctx);
  return s.values[Last ? positions.back() : positions.front()];
}

AggregateTyping typing(const Type& arg) {
  if (arg.id == TypeId::Null) return {std::nullopt, "the argument type is unknown"};
  return {arg, nullptr};
}

StateKind first_state(const Type&) { return StateKind::FirstOrdered; }
StateKind last_state(const Type&) { return StateKind::LastOrdered; }
StateKind unordered_last_state(const Type& arg) { return kMax.state(arg); }

}  // namespace

const StateInfo kFirstOrderedState = {StateKind::FirstOrdered,
                                      "FirstOrdered",
                                      {FieldKind::Count},
                                      SumGrowth::None,
                                      true,
                                      update_list,
                                      combine_lists,
                                      final<false>,
                                      nullptr,
                                      nullptr,
                                      true};
const StateInfo kLastOrderedState = {StateKind::LastOrdered,
                                     "LastOrdered",
                                     {FieldKind::Count},
                                     SumGrowth::None,
                                     true,
                                     update_list,
                                     combine_lists,
                                     final<true>,
                                     nullptr,
                                     nullptr,
                                     true};

// Reached through ORDER BY in a FIRST or LAST call only: no SQL name of their own.
const AggregateFunction kFirstOrdered = {AggKind::FirstOrdered,
                                         "FIRST",
                                         {},
                                         DistinctRule::Ignored,
                                         typing,
                                         first_state,
                                         nullptr,
                                         AggExtra::None,
                                         WithinGroupRule::Rejected,
                                         &kFirstOrdered};
const AggregateFunction kLastOrdered = {AggKind::LastOrdered,
                                        "LAST",
                                        {},
                                        DistinctRule::Ignored,
                                        typing,
                                        last_state,
                                        nullptr,
                                        AggExtra::None,
                                        WithinGroupRule::Rejected,
                                        &kLastOrdered};
const AggregateFunction kLast = {
    AggKind::Last,        "LAST",  {"LAST"},       DistinctRule::Ignored,     typing,
    unordered_last_state, nullptr, AggExtra::None, WithinGroupRule::Rejected, &kLastOrdered};

}  // namespace tally::aggregates
