// Function calls (aggregates, ABS, ROUND, MOD, COALESCE, EXTRACT; the others are in
// scalar_functions.cpp), CASE and CAST.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "compiler/bind/binder.h"
#include "compiler/bind/expression_binder.h"
#include "compiler/bind/literals.h"
#include "compiler/common/decimal.h"
#include "compiler/common/suggest.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

const std::vector<std::string>& known_function_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names = aggregate_names();
    for (const char* scalar : {"abs", "round", "mod", "coalesce", "extract"}) {
      names.push_back(scalar);
    }
    for (std::string& scalar : scalar_function_names()) names.push_back(std::move(scalar));
    return names;
  }();
  return kNames;
}

}  // namespace

ExprPtr ExpressionBinder::bind_function(const ast::Expr& e) {
  if (e.name == "GROUPING") return bind_grouping(e);
  if (const AggregateFunction* f = find_aggregate(e.name)) return bind_aggregate(e, *f);
  const std::string name = lower_ascii(e.name);
  const bool known = std::find(known_function_names().begin(), known_function_names().end(),
                               name) != known_function_names().end();
  if (!known) {
    throw Error(ErrorKind::Binder,
                fmt::format("function \"{}\" does not exist{}", name,
                            did_you_mean(name, known_function_names())),
                e.location);
  }
  if (e.distinct || e.star || !e.order_by.empty() || e.filter) {
    const char* what = e.star ? "*" : e.distinct ? "DISTINCT" : e.filter ? "FILTER" : "ORDER BY";
    if (e.within_group) what = "WITHIN GROUP";
    throw Error(ErrorKind::Binder,
                fmt::format("{} specified, but {} is not an aggregate function", what, name),
                e.location);
  }
  if (const ScalarEntry* f = find_scalar_function(name)) return bind_scalar_function(e, *f);
  if (e.name == "ABS") return bind_abs(e);
  if (e.name == "ROUND") return bind_round(e);
  if (e.name == "EXTRACT") return bind_extract(e);
  if (e.name == "COALESCE") return bind_coalesce(e);
  expect_arguments(e, 2, 2);  // MOD(a, b) is a % b
  return bind_arith(e, kMod, *e.children[0], *e.children[1]);
}

ExprPtr ExpressionBinder::numeric_argument(const ast::Expr& call, const ast::Expr& arg) {
  Operand op = bind_operand(arg);
  if (!op.unknown_literal) op.expr = settle_untyped(op.expr, Type::integer(), ctx_);
  if (!op.expr->type.is_numeric()) {
    throw Error(ErrorKind::Type,
                fmt::format("function \"{}\" requires a numeric argument, not {}",
                            lower_ascii(call.name), op.expr->type.to_string()),
                arg.location);
  }
  return op.expr;
}

ExprPtr ExpressionBinder::bind_abs(const ast::Expr& e) {
  expect_arguments(e, 1, 1);
  ExprPtr x = numeric_argument(e, *e.children[0]);
  return new_node(ExprKind::Abs, x->type, e, {x});
}

ExprPtr ExpressionBinder::bind_round(const ast::Expr& e) {
  expect_arguments(e, 1, 2);
  ExprPtr x = numeric_argument(e, *e.children[0]);
  const int digits = e.children.size() == 2 ? constant_digits(e, *e.children[1]) : 0;
  Type type = x->type;
  if (type.is_decimal()) {
    int scale = std::max(digits, 0);
    type = Type::decimal(std::min(kMaxDecimalPrecision, type.precision - type.scale + scale + 1),
                         scale);
  } else if (type.is_float()) {
    type = Type::double_();
    x = convert(x, type, ctx_);
  }
  auto node = new_node(ExprKind::Round, type, e, {x});
  node->digits = digits;
  return node;
}

ExprPtr ExpressionBinder::bind_extract(const ast::Expr& e) {
  expect_arguments(e, 1, 1);
  auto field = extract_field_of(e.extract_field);
  if (!field) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("EXTRACT({} FROM ...) is not supported", e.extract_field), e.location);
  }
  ExprPtr date = date_argument(e, *e.children[0], true);
  fail_time_part_of_date(e.extract_field, e, *date, *field >= kHour);
  fail_date_part_of_time(e.extract_field, e, *date, *field);
  return new_node(ExprKind::Extract, Type::bigint(), e, {date}, *field);
}

ExprPtr ExpressionBinder::bind_coalesce(const ast::Expr& e) {
  expect_arguments(e, 1, SIZE_MAX);
  std::vector<Operand> ops;
  for (const auto& child : e.children) ops.push_back(bind_operand(*child));
  Type type = unify(ops, "COALESCE");
  if (ops.size() == 1) return ops[0].expr;
  std::vector<ExprPtr> children;
  for (auto& op : ops) children.push_back(op.expr);
  return new_node(ExprKind::Coalesce, type, e, std::move(children));
}

ExprPtr ExpressionBinder::bind_case(const ast::Expr& e) {
  const size_t pairs = e.children.size() / 2;
  std::vector<ExprPtr> conditions;
  if (e.case_operand) {
    // Simple CASE: operand = value for each WHEN, the operand typed from all the values.
    std::vector<Operand> compared{bind_operand(*e.case_operand)};
    for (size_t i = 0; i < pairs; ++i) compared.push_back(bind_operand(*e.children[2 * i]));
    resolve_unknowns(compared, ctx_);
    compared[0].expr = settle_untyped(compared[0].expr, Type::varchar(), ctx_);
    for (size_t i = 0; i < pairs; ++i) {
      conditions.push_back(compare_operands(*e.children[2 * i], kEq, compared[0], compared[i + 1]));
    }
  } else {
    for (size_t i = 0; i < pairs; ++i) {
      conditions.push_back(require_boolean(bind_operand(*e.children[2 * i]), "CASE/WHEN"));
    }
  }
  std::vector<Operand> results;
  for (size_t i = 0; i < pairs; ++i) results.push_back(bind_operand(*e.children[2 * i + 1]));
  if (e.else_expr) results.push_back(bind_operand(*e.else_expr));
  Type type = unify(results, "CASE");
  std::vector<ExprPtr> children;
  for (size_t i = 0; i < pairs; ++i) {
    children.push_back(conditions[i]);
    children.push_back(results[i].expr);
  }
  children.push_back(e.else_expr ? results.back().expr : make_null_constant(type));
  return new_node(ExprKind::Case, type, e, std::move(children));
}

ExprPtr ExpressionBinder::bind_cast(const ast::Expr& e) {
  Type target = resolve_type_name(e.cast_type);
  const ast::Expr& arg = *e.children.at(0);
  if (arg.kind == ast::ExprKind::StringLiteral) {
    return cast_string_literal(arg.text, target, arg.location);
  }
  ExprPtr x = bind(arg);
  if (is_untyped(*x)) return adapt_untyped(x, target, ctx_);
  if (!can_cast(x->type, target)) {
    throw Error(ErrorKind::Type,
                fmt::format("cannot cast {} to {}", x->type.to_string(), target.to_string()),
                e.location);
  }
  if (x->type.same_as(target)) return x;
  return new_node(ExprKind::Cast, target, e, {x});
}

}  // namespace tally
