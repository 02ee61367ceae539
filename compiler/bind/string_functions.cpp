// Binding of the string functions and of `a || b`: UPPER, LENGTH, SUBSTRING, CONCAT, TRIM,
// REPLACE, STARTS_WITH, LEFT, RIGHT take strings (and integer counts) and give VARCHAR,
// BIGINT or BOOLEAN; CONCAT and || turn other arguments into text, as PostgreSQL does.
#include <fmt/format.h>

#include "compiler/bind/expression_binder.h"
#include "compiler/bind/scalar_functions.h"

namespace tally {

namespace {

// The operand typed as `type` where it has no type of its own (a NULL, a string literal).
ExprPtr settled(Operand op, const Type& type, BindContext& ctx) {
  resolve_unknown(op, type, ctx);
  return settle_untyped(op.expr, type, ctx);
}

void require_kind(bool ok, const ast::Expr& call, const ast::Expr& arg, const char* kind,
                  const Type& got) {
  if (ok) return;
  throw Error(ErrorKind::Type,
              fmt::format("function \"{}\" requires {} argument, not {}", lower_ascii(call.name),
                          kind, got.to_string()),
              arg.location);
}

}  // namespace

ExprPtr ExpressionBinder::string_argument(const ast::Expr& call, const ast::Expr& arg) {
  ExprPtr x = settled(bind_operand(arg), Type::varchar(), ctx_);
  require_kind(x->type.is_string(), call, arg, "a string", x->type);
  return x;
}

ExprPtr ExpressionBinder::integer_argument(const ast::Expr& call, const ast::Expr& arg) {
  ExprPtr x = settled(bind_operand(arg), Type::bigint(), ctx_);
  require_kind(x->type.is_integer(), call, arg, "an integer", x->type);
  return convert(x, Type::bigint(), ctx_);
}

// Any value as text (CONCAT's and ||'s operands): strings stay, others are CAST.
ExprPtr ExpressionBinder::as_text(Operand op) {
  ExprPtr x = settled(std::move(op), Type::varchar(), ctx_);
  return x->type.is_string() ? x : convert(x, Type::varchar(), ctx_);
}

ExprPtr ExpressionBinder::bind_string_function(const ast::Expr& e, const ScalarEntry& f) {
  if (f.rule == ScalarRule::Concat) {
    std::vector<ExprPtr> args;
    for (const auto& child : e.children) args.push_back(as_text(bind_operand(*child)));
    return new_node(ExprKind::Function, Type::varchar(), e, std::move(args), kConcat);
  }
  std::vector<ExprPtr> args{string_argument(e, *e.children[0])};
  const bool counts = f.fn == kSubstring || f.fn == kLeft || f.fn == kRight;
  for (size_t i = 1; i < e.children.size(); ++i) {
    args.push_back(counts ? integer_argument(e, *e.children[i])
                          : string_argument(e, *e.children[i]));
  }
  Type type = Type::varchar();
  if (f.fn == kLength) type = Type::bigint();
  if (f.fn == kStartsWith) type = Type::boolean();
  return new_node(ExprKind::Function, type, e, std::move(args), f.fn);
}

// a || b: NULL when either is. One side must be a string (PostgreSQL: "operator does not
// exist: integer || integer"); the other becomes text.
ExprPtr ExpressionBinder::bind_concat_operator(const ast::Expr& e) {
  Operand a = bind_operand(*e.children.at(0));
  Operand b = bind_operand(*e.children.at(1));
  auto stringish = [](const Operand& op) {
    return op.unknown_literal || is_untyped(*op.expr) || op.expr->type.is_string();
  };
  if (!stringish(a) && !stringish(b)) {
    fail_operator(e, "||", a.expr->type.to_string(), b.expr->type.to_string());
  }
  return new_node(ExprKind::Function, Type::varchar(), e, {as_text(a), as_text(b)}, kConcatStrict);
}

}  // namespace tally
