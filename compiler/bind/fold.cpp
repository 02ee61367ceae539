// Constant folding: subtrees without column, parameter, key or aggregate references are
// evaluated once at bind time (DATE '1998-12-01' - INTERVAL '90' DAY becomes a DATE).
#include "compiler/common/error.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

bool is_leaf(ExprKind k) {
  return k == ExprKind::Constant || k == ExprKind::ColumnRef || k == ExprKind::Parameter ||
         k == ExprKind::GroupKeyRef || k == ExprKind::AggregateRef;
}

ExprPtr to_constant(const Expr& e, const Value& v, const StringHeap& strings) {
  auto c = std::make_shared<Expr>();
  c->kind = ExprKind::Constant;
  c->type = e.type;
  c->text = e.text;
  if (e.type.is_string() && !v.null) {
    c->str = strings.get(v.i);
    c->value = Value::from_int(0);
  } else {
    c->value = v;
  }
  return c;
}

}  // namespace

ExprPtr fold_constants(const ExprPtr& e) {
  if (!e || is_leaf(e->kind)) return e;
  std::vector<ExprPtr> children;
  bool changed = false, all_constant = true;
  for (const auto& c : e->children) {
    ExprPtr f = fold_constants(c);
    changed |= f != c;
    all_constant &= f->kind == ExprKind::Constant;
    children.push_back(std::move(f));
  }
  ExprPtr node = e;
  if (changed) {
    auto copy = std::make_shared<Expr>(*e);
    copy->children = std::move(children);
    node = copy;
  }
  // GROUPING()'s value depends on the grouping set: only the GROUP BY rewrite can give it.
  if (!all_constant || node->kind == ExprKind::Grouping) return node;
  StringHeap strings;
  EvalContext ctx;
  ctx.strings = &strings;
  try {
    return to_constant(*node, evaluate(*node, ctx), strings);
  } catch (const Error& error) {
    // 1/0 in a branch that may never run: leave it for execution to report, if reached.
    if (error.kind() != ErrorKind::Execution) throw;
    return node;
  }
}

}  // namespace tally
