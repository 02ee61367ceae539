// The type rules the expression binders share: common types, implicit casts, the casts
// allowed, arithmetic result types, and the PostgreSQL-style inference that gives operands
// without a type of their own (NULL, '?' parameters, string literals) the type their
// context asks for.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "compiler/bind/context.h"
#include "compiler/ir/expr.h"
#include "compiler/parse/ast.h"

namespace tally {

// An operand of an operator being bound, with the syntax it came from.
struct Operand {
  ExprPtr expr;
  const ast::Expr* source = nullptr;  // location and text for errors
  bool unknown_literal = false;       // a string literal its context has not typed yet
};
Operand make_operand(ExprPtr expr, const ast::Expr& source);

// Of type NULL: a NULL literal, a parameter not yet typed, or a CASE/COALESCE of those.
bool is_untyped(const Expr& e);
bool is_unknown(const Operand& op);

// Gives an untyped expression the type its context asks for (typed NULL, typed parameter).
ExprPtr adapt_untyped(const ExprPtr& e, const Type& type, BindContext& ctx);
// The expression as `type`: itself when the types are the same, adapted when untyped, else
// wrapped in a Cast.
ExprPtr convert(const ExprPtr& e, const Type& type, BindContext& ctx);
// For an expression still untyped where a type is needed: a parameter inside is an error
// (its type cannot be determined); NULLs take `fallback`.
ExprPtr settle_untyped(const ExprPtr& e, const Type& fallback, BindContext& ctx);

// Gives an unknown operand the type `anchor` (string literals: read as a value of that
// kind). Other operands are left alone.
void resolve_unknown(Operand& op, const Type& anchor, BindContext& ctx);
// The type the unknown operands of a list take: the common type of the typed ones, else
// VARCHAR when a string literal is among them, else none.
std::optional<Type> anchor_type(const std::vector<Operand>& ops);
void resolve_unknowns(std::vector<Operand>& ops, BindContext& ctx);

// CASE/COALESCE/IN common type: any float -> DOUBLE; any DECIMAL -> DECIMAL with the
// largest scale and integer digits; else the widest integer; DATE, VARCHAR, BOOLEAN with
// their own kind. nullopt when the kinds differ. A NULL type yields the other type.
std::optional<Type> common_type(const Type& a, const Type& b);

// Operand types for comparing a with b: integers -> the wider; integer vs DECIMAL ->
// DECIMAL(digits,0) vs the DECIMAL; any float -> both DOUBLE; DECIMALs keep their scales;
// DATE, VARCHAR, BOOLEAN only against their own kind.
std::optional<std::pair<Type, Type>> comparison_types(const Type& a, const Type& b);

// `a op b`: the operand types to convert to and the result type. `swap` puts the DATE
// first for INTEGER + DATE.
struct ArithTyping {
  Type left, right, result;
  bool swap = false;
};
// nullopt when the operator is not defined for these types. Throws Error(Type) (at `site`)
// when a DECIMAL product's scale would exceed 38.
std::optional<ArithTyping> arith_typing(int op, const Type& a, const Type& b,
                                        const ast::Expr& site);

// CAST rules: numeric <-> numeric, VARCHAR <-> anything, BOOLEAN <-> integer, same kind,
// and NULL to anything.
bool can_cast(const Type& from, const Type& to);

// Integer digits a number of this type may have (DECIMAL(p,s): p - s).
int integer_digits_of(const Type& t);

}  // namespace tally
