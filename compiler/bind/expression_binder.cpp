#include "compiler/bind/expression_binder.h"

#include <fmt/format.h>

#include "compiler/bind/literals.h"
#include "compiler/eval/evaluator.h"

namespace tally {

std::shared_ptr<Expr> new_node(ExprKind kind, Type type, const ast::Expr& site,
                               std::vector<ExprPtr> children, int op) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = type;
  e->children = std::move(children);
  e->op = op;
  e->text = site.source_text;
  e->location = site.location;
  return e;
}

ExprPtr ExpressionBinder::bind_root(const ast::Expr& e) {
  return fold_constants(settle_untyped(bind(e), Type::varchar(), ctx_));
}

ExprPtr ExpressionBinder::bind_condition(const ast::Expr& e) {
  return fold_constants(require_boolean(bind_operand(e), rules_.clause));
}

ExprPtr ExpressionBinder::require_boolean(Operand op, const char* what) {
  resolve_unknown(op, Type::boolean(), ctx_);
  if (op.expr->type.id != TypeId::Boolean) {
    throw Error(
        ErrorKind::Type,
        fmt::format("argument of {} must be type BOOLEAN, not {}", what, op.expr->type.to_string()),
        op.source->location);
  }
  return op.expr;
}

ExprPtr ExpressionBinder::bind(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::ColumnRef:
      return ctx_.column(e.qualifier, e.name, e.location);
    case K::Parameter:
      return ctx_.parameter(e.parameter_index, e.location);
    case K::IntervalLiteral:
      return interval_literal({e.interval_months, e.interval_days, e.interval_micros},
                              e.source_text, e.location);
    case K::Unary:
      return bind_unary(e);
    case K::Binary:
      return bind_binary(e);
    case K::Between:
      return bind_between(e);
    case K::InList:
      return bind_in(e);
    case K::Like:
      return bind_like(e);
    case K::IsNull:
      return bind_is_null(e);
    case K::Case:
      return bind_case(e);
    case K::Cast:
      return bind_cast(e);
    case K::FunctionCall:
      return bind_function(e);
    case K::ScalarSubquery:
    case K::InSubquery:
    case K::Exists:
      return bind_subquery(e);
    default:
      return bind_literal(e);
  }
}

ExprPtr ExpressionBinder::bind_literal(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::IntegerLiteral:
      return integer_literal(e.text, e.location);
    case K::DecimalLiteral:
      return decimal_literal(e.text, e.location);
    case K::FloatLiteral:
      return float_literal(e.text, e.location);
    case K::StringLiteral:
      return string_literal(e.text, e.location);
    case K::BooleanLiteral:
      return boolean_literal(e.boolean_value, e.location);
    case K::DateLiteral:
      return date_literal(e.text, e.location);
    case K::TimestampLiteral:
      return timestamp_literal(e.text, e.location);
    case K::NullLiteral: {
      auto null = std::make_shared<Expr>(*make_null_constant(Type::null()));
      null->location = e.location;
      return null;
    }
    default:
      throw Error(ErrorKind::Internal, "binder: unexpected expression kind", e.location);
  }
}

ExprPtr ExpressionBinder::bind_unary(const ast::Expr& e) {
  Operand op = bind_operand(*e.children.at(0));
  if (e.op == "NOT") {
    return new_node(ExprKind::Not, Type::boolean(), e, {require_boolean(op, "NOT")});
  }
  if (e.op != "-" && e.op != "+") {
    throw Error(ErrorKind::Unsupported, fmt::format("operator '{}' is not supported", e.op),
                e.location);
  }
  if (!op.unknown_literal) op.expr = settle_untyped(op.expr, Type::integer(), ctx_);
  const bool signed_type = op.expr->type.is_numeric() || op.expr->type.is_interval();
  if (op.unknown_literal || !signed_type) {
    throw Error(ErrorKind::Type,
                fmt::format("cannot apply operator '{}' to {} in \"{}\"", e.op,
                            op.expr->type.to_string(), e.source_text),
                e.location);
  }
  if (e.op == "+") return op.expr;
  return new_node(ExprKind::Negate, op.expr->type, e, {op.expr});
}

ExprPtr ExpressionBinder::bind_binary(const ast::Expr& e) {
  static const std::pair<const char*, int> kArith[] = {
      {"+", kAdd}, {"-", kSub}, {"*", kMul}, {"/", kDiv}, {"%", kMod}};
  static const std::pair<const char*, int> kCompare[] = {
      {"=", kEq}, {"<>", kNe}, {"!=", kNe}, {"<", kLt}, {"<=", kLe}, {">", kGt}, {">=", kGe}};
  const ast::Expr& left = *e.children.at(0);
  const ast::Expr& right = *e.children.at(1);
  for (auto [symbol, op] : kArith) {
    if (e.op == symbol) return bind_arith(e, op, left, right);
  }
  for (auto [symbol, op] : kCompare) {
    if (e.op == symbol) return bind_compare(e, op, left, right);
  }
  if (e.op == "AND") return bind_logic(e, ExprKind::And);
  if (e.op == "OR") return bind_logic(e, ExprKind::Or);
  if (e.op == "||") return bind_concat_operator(e);
  throw Error(ErrorKind::Unsupported, fmt::format("operator '{}' is not supported", e.op),
              e.location);
}

ExprPtr ExpressionBinder::bind_logic(const ast::Expr& e, ExprKind kind) {
  const char* what = kind == ExprKind::And ? "AND" : "OR";
  std::vector<ExprPtr> children;
  for (const auto& child : e.children) {
    ExprPtr b = require_boolean(bind_operand(*child), what);
    if (b->kind == kind) {  // (a AND b) AND c -> AND(a, b, c)
      children.insert(children.end(), b->children.begin(), b->children.end());
    } else {
      children.push_back(std::move(b));
    }
  }
  return new_node(kind, Type::boolean(), e, std::move(children));
}

ExprPtr ExpressionBinder::bind_is_null(const ast::Expr& e) {
  ExprPtr child = settle_untyped(bind(*e.children.at(0)), Type::varchar(), ctx_);
  auto node = new_node(ExprKind::IsNull, Type::boolean(), e, {child});
  node->negated = e.negated;
  return node;
}

}  // namespace tally
