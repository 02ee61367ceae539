// ANY_VALUE(x) and FIRST(x): some non-NULL value of the group, NULL over none. Both engines
// run a group's rows in no defined order (morsels on threads, rows on GPU lanes), so FIRST
// cannot mean the first row; tally answers with the least value, the MIN state, which makes
// the answer the same on every engine and every run.
#include "compiler/functions/aggregate_entries.h"

namespace tally::aggregates {

namespace {

AggregateTyping typing(const Type& arg) {
  if (arg.id == TypeId::Null) return {std::nullopt, "the argument type is unknown"};
  return {arg, nullptr};
}

StateKind state(const Type& arg) { return kMin.state(arg); }

}  // namespace

// FIRST(x ORDER BY y) keeps the rows' order (first_last.cpp).
const AggregateFunction kAnyValue = {AggKind::AnyValue,
                                     "ANY_VALUE",
                                     {"ANY_VALUE", "FIRST"},
                                     DistinctRule::Ignored,
                                     typing,
                                     state,
                                     nullptr,
                                     AggExtra::None,
                                     WithinGroupRule::Rejected,
                                     &kFirstOrdered};

}  // namespace tally::aggregates
