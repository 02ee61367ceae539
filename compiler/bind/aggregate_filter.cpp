// Aggregate FILTER (WHERE cond) and GROUPING(keys).
//
// FILTER becomes a conditional argument: agg(CASE WHEN cond THEN x END). Every aggregate in
// compiler/functions/ skips NULL arguments (a pair aggregate skips a row when either is
// NULL), so the rows where cond is not true reach no state, on every engine, DISTINCT
// included. COUNT(*) and COUNT(x) become COUNT_IF of the condition.
#include <fmt/format.h>

#include "compiler/bind/expression_binder.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

// PostgreSQL's limit: the bit mask is an INTEGER.
constexpr size_t kMaxGroupingArguments = 31;

ExprPtr only_when(const ExprPtr& condition, const ExprPtr& value) {
  return make_node(ExprKind::Case, value->type,
                   {condition, value, make_null_constant(value->type)});
}

bool is_true(const Expr& e) {
  return e.kind == ExprKind::Constant && !e.value.null && e.value.i != 0;
}

}  // namespace

void ExpressionBinder::apply_filter(AggregateCall& call, const ast::Expr& filter) {
  ExprPtr condition;
  {
    // The condition is evaluated per row, below the aggregation, like an argument.
    const bool was_inside = inside_aggregate_;
    inside_aggregate_ = true;
    condition = fold_constants(require_boolean(bind_operand(filter), "FILTER"));
    inside_aggregate_ = was_inside;
  }
  if (is_true(*condition)) return;
  // COUNT(*) and COUNT(x) count the rows where the condition (and x IS NOT NULL) is true:
  // COUNT_IF of it, whose state needs no value.
  if (call.kind == AggKind::CountStar || (call.kind == AggKind::Count && !call.distinct)) {
    if (call.kind == AggKind::Count) {
      auto present =
          std::make_shared<Expr>(*make_node(ExprKind::IsNull, Type::boolean(), {call.arg}));
      present->negated = true;
      condition = make_node(ExprKind::And, Type::boolean(), {condition, present});
    }
    call.kind = AggKind::CountIf;
    call.arg = condition;
    return;
  }
  call.arg = only_when(condition, call.arg);
  if (call.key) call.key = only_when(condition, call.key);
}

// GROUPING(a, b): bound over input columns here; the GROUP BY rewrite turns each argument
// into its key (grouping.cpp) or names the one that is not a key.
ExprPtr ExpressionBinder::bind_grouping(const ast::Expr& e) {
  if (!rules_.allows_aggregates) {
    throw Error(ErrorKind::Binder,
                fmt::format("grouping operations are not allowed in {}", rules_.clause),
                e.location);
  }
  if (inside_aggregate_) {
    throw Error(ErrorKind::Binder, "aggregate function calls cannot contain grouping operations",
                e.location);
  }
  if (e.star || e.distinct || e.filter || e.children.empty()) {
    throw Error(ErrorKind::Binder, "GROUPING takes one or more GROUP BY expressions", e.location);
  }
  if (e.children.size() > kMaxGroupingArguments) {
    throw Error(ErrorKind::Binder, "GROUPING must have fewer than 32 arguments", e.location);
  }
  std::vector<ExprPtr> keys;
  for (const auto& child : e.children) keys.push_back(bind_root(*child));
  auto node = new_node(ExprKind::Grouping, Type::integer(), e, std::move(keys));
  ctx_.note_grouping_call();
  return node;
}

}  // namespace tally
