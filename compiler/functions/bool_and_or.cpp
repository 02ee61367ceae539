// BOOL_AND (EVERY) and BOOL_OR over BOOLEAN: true when every / any non-NULL value is true,
// NULL over no values. BOOLEANs order false < true, so they are MIN and MAX of booleans and
// keep those states on both engines.
#include "compiler/functions/aggregate_entries.h"

namespace tally::aggregates {

namespace {

AggregateTyping typing(const Type& arg) {
  if (arg.id == TypeId::Boolean) return {Type::boolean(), nullptr};
  return {std::nullopt, "the argument must be BOOLEAN"};
}

StateKind all_true(const Type&) { return StateKind::MinInt; }
StateKind any_true(const Type&) { return StateKind::MaxInt; }

}  // namespace

const AggregateFunction kBoolAnd = {AggKind::BoolAnd,      "BOOL_AND", {"BOOL_AND", "EVERY"},
                                    DistinctRule::Ignored, typing,     all_true};
const AggregateFunction kBoolOr = {AggKind::BoolOr,       "BOOL_OR", {"BOOL_OR"},
                                   DistinctRule::Ignored, typing,    any_true};

}  // namespace tally::aggregates
