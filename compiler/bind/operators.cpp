// Arithmetic, comparisons, BETWEEN, IN and LIKE.
#include <fmt/format.h>

#include "compiler/bind/expression_binder.h"
#include "compiler/common/interval_value.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

// The type an unknown operand of `op` takes from the typed operand next to it. Next to a
// DATE, + reads it as a number of days; - reads a string literal as a DATE (date - date),
// and a parameter as days unless it is the left operand (? - date is date - date).
Type arith_anchor(int op, const Operand& unknown, bool unknown_is_left, const Type& other) {
  if (other.id != TypeId::Date || (op != kAdd && op != kSub)) return other;
  if (op == kAdd) return Type::integer();
  if (unknown.unknown_literal || unknown_is_left) return Type::date();
  return Type::integer();
}

// The type of date_side +/- an interval: a DATE plus a time part is a TIMESTAMP (PostgreSQL,
// DuckDB); a DATE plus whole days or months stays a DATE; the others keep their type.
Type shifted_type(const Type& date_side, bool has_time) {
  return date_side.id == TypeId::Date && has_time ? Type::timestamp() : date_side;
}

}  // namespace

void ExpressionBinder::fail_operator(const ast::Expr& site, const std::string& symbol,
                                     const std::string& a, const std::string& b) {
  throw Error(ErrorKind::Type,
              fmt::format("cannot apply operator '{}' to {} and {} in \"{}\"", symbol, a, b,
                          site.source_text),
              site.location);
}

ExprPtr ExpressionBinder::bind_arith(const ast::Expr& site, int op, const ast::Expr& left,
                                     const ast::Expr& right) {
  Operand a = bind_operand(left), b = bind_operand(right);
  // A DATE, TIMESTAMP or TIME +/- an INTERVAL literal keeps the literal's parts in the node,
  // which the GPU code reads too; an interval-valued expression is arithmetic like any other.
  const bool literal_left = left.kind == ast::ExprKind::IntervalLiteral;
  const bool literal_right = right.kind == ast::ExprKind::IntervalLiteral;
  if ((op == kAdd || op == kSub) && literal_left != literal_right) {
    Operand& other = literal_left ? b : a;
    if (!other.expr->type.is_interval()) {
      return bind_date_interval(site, op, literal_left ? a : b, other, literal_left);
    }
  }
  const bool a_unknown = is_unknown(a), b_unknown = is_unknown(b);
  if (a_unknown && b_unknown) {
    std::vector<Operand> both{a, b};
    resolve_unknowns(both, ctx_);
    a = both[0];
    b = both[1];
  } else if (a_unknown) {
    resolve_unknown(a, arith_anchor(op, a, true, b.expr->type), ctx_);
  } else if (b_unknown) {
    resolve_unknown(b, arith_anchor(op, b, false, a.expr->type), ctx_);
  }
  a.expr = settle_untyped(a.expr, Type::integer(), ctx_);
  b.expr = settle_untyped(b.expr, Type::integer(), ctx_);
  auto typing = arith_typing(op, a.expr->type, b.expr->type, site);
  if (!typing) {
    fail_operator(site, arith_op_symbol(op), a.expr->type.to_string(), b.expr->type.to_string());
  }
  ExprPtr l = convert(a.expr, typing->left, ctx_);
  ExprPtr r = convert(b.expr, typing->right, ctx_);
  if (typing->swap) std::swap(l, r);
  return new_node(ExprKind::Arith, typing->result, site, {l, r}, op);
}

ExprPtr ExpressionBinder::bind_date_interval(const ast::Expr& site, int op, const Operand& interval,
                                             Operand d, bool interval_left) {
  // A bare string next to an interval is a DATE, or a TIMESTAMP when it has a time.
  const Interval parts = as_interval(interval.expr->value);
  const bool has_time = parts.micros != 0;
  resolve_unknown(d, has_time ? Type::timestamp() : Type::date(), ctx_);
  const bool shiftable = d.expr->type.is_datetime() || d.expr->type.id == TypeId::Time;
  if (!shiftable || (interval_left && op == kSub)) {
    std::string date_type = d.expr->type.to_string();
    fail_operator(site, arith_op_symbol(op), interval_left ? "INTERVAL" : date_type,
                  interval_left ? date_type : "INTERVAL");
  }
  const Type result = shifted_type(d.expr->type, has_time);
  auto node = new_node(ExprKind::DateAdd, result, site, {convert(d.expr, result, ctx_)});
  // 32-bit months and days, so their negations fit the node's 64 bits.
  const int64_t sign = op == kSub ? -1 : 1;
  node->months = sign * parts.months;
  node->days = sign * parts.days;
  if (sign < 0 && parts.micros == INT64_MIN) {
    throw Error(ErrorKind::Execution, "interval out of range", site.location);
  }
  node->micros = sign * parts.micros;
  return node;
}

ExprPtr ExpressionBinder::bind_compare(const ast::Expr& site, int op, const ast::Expr& left,
                                       const ast::Expr& right) {
  Operand a = bind_operand(left);  // left first: scan columns in order of reference
  Operand b = bind_operand(right);
  return compare_operands(site, op, std::move(a), std::move(b));
}

ExprPtr ExpressionBinder::compare_operands(const ast::Expr& site, int op, Operand a, Operand b) {
  std::vector<Operand> both{a, b};
  resolve_unknowns(both, ctx_);
  ExprPtr l = settle_untyped(both[0].expr, Type::varchar(), ctx_);
  ExprPtr r = settle_untyped(both[1].expr, Type::varchar(), ctx_);
  auto types = comparison_types(l->type, r->type);
  if (!types) fail_operator(site, compare_op_symbol(op), l->type.to_string(), r->type.to_string());
  return new_node(ExprKind::Compare, Type::boolean(), site,
                  {convert(l, types->first, ctx_), convert(r, types->second, ctx_)}, op);
}

ExprPtr ExpressionBinder::bind_between(const ast::Expr& e) {
  // The value is bound once and typed from both bounds before the two comparisons.
  std::vector<Operand> ops;
  for (const auto& child : e.children) ops.push_back(bind_operand(*child));
  resolve_unknowns(ops, ctx_);
  ops[0].expr = settle_untyped(ops[0].expr, Type::varchar(), ctx_);
  ExprPtr low = compare_operands(e, e.negated ? kLt : kGe, ops[0], ops[1]);
  ExprPtr high = compare_operands(e, e.negated ? kGt : kLe, ops[0], ops[2]);
  return new_node(e.negated ? ExprKind::Or : ExprKind::And, Type::boolean(), e, {low, high});
}

Type ExpressionBinder::unify(std::vector<Operand>& ops, const char* construct) {
  resolve_unknowns(ops, ctx_);
  std::optional<Type> type;
  for (const auto& op : ops) {
    if (is_untyped(*op.expr)) continue;
    if (!type) {
      type = op.expr->type;
      continue;
    }
    auto common = common_type(*type, op.expr->type);
    if (!common) {
      throw Error(ErrorKind::Type,
                  fmt::format("{} types {} and {} cannot be matched", construct, type->to_string(),
                              op.expr->type.to_string()),
                  op.source->location);
    }
    type = common;
  }
  if (!type) return Type::null();
  for (auto& op : ops) op.expr = convert(op.expr, *type, ctx_);
  return *type;
}

ExprPtr ExpressionBinder::bind_in(const ast::Expr& e) {
  std::vector<Operand> ops;
  for (const auto& child : e.children) ops.push_back(bind_operand(*child));
  return in_list(e, std::move(ops));
}

ExprPtr ExpressionBinder::in_list(const ast::Expr& e, std::vector<Operand> ops) {
  unify(ops, "IN");
  std::vector<ExprPtr> children;
  for (auto& op : ops) children.push_back(settle_untyped(op.expr, Type::varchar(), ctx_));
  auto node = new_node(ExprKind::InList, Type::boolean(), e, std::move(children));
  node->negated = e.negated;
  return node;
}

ExprPtr ExpressionBinder::bind_like(const ast::Expr& e) {
  const bool ilike = e.op == "ILIKE";
  const std::string symbol = std::string(e.negated ? "NOT " : "") + (ilike ? "ILIKE" : "LIKE");
  Operand value = bind_operand(*e.children.at(0));
  resolve_unknown(value, Type::varchar(), ctx_);
  ExprPtr pattern = fold_constants(adapt_untyped(bind(*e.children.at(1)), Type::varchar(), ctx_));
  if (!value.expr->type.is_string()) {
    fail_operator(e, symbol, value.expr->type.to_string(), pattern->type.to_string());
  }
  if (pattern->kind != ExprKind::Constant) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("{} with a non-constant pattern is not supported", symbol),
                e.children[1]->location);
  }
  if (!pattern->type.is_string()) {
    fail_operator(e, symbol, value.expr->type.to_string(), pattern->type.to_string());
  }
  if (pattern->value.null) return new_node(ExprKind::Constant, Type::boolean(), e);
  auto node = new_node(ExprKind::Like, Type::boolean(), e, {value.expr});
  node->str = pattern->str;
  node->negated = e.negated;
  node->op = ilike ? 1 : 0;
  return node;
}

}  // namespace tally
