// AST -> typed IR: resolves names against the catalog, types every expression, inserts
// implicit casts, folds constants, and splits a SELECT into the BoundSelect phases.
#pragma once

#include "compiler/bind/catalog.h"
#include "compiler/bind/subquery_values.h"
#include "compiler/ir/query.h"
#include "compiler/parse/ast.h"

namespace tally {

// Throws Error (Binder, Type, Unsupported) with the location of the offending item.
// `subqueries`: the results of the statement's subquery expressions, run beforehand.
BoundSelect bind_select(const ast::SelectStmt& stmt, const Catalog& catalog, int parameter_count,
                        const SubqueryValues* subqueries = nullptr);

// CREATE TABLE / CAST type names -> Type. Throws Error(Type) for bad parameters
// (DECIMAL precision outside 1..38, scale > precision, ...).
Type resolve_type_name(const ast::TypeName& name);

// A constant expression (INSERT ... VALUES) bound, cast to `target` and folded to a
// Constant node. Throws Error(Type) if it cannot be converted.
ExprPtr bind_constant(const ast::Expr& expr, const Type& target);

// VALUES (...), (...): the column types (compiler/bind/values.cpp) and each row's items
// bound, cast to them and folded to Constant nodes.
struct BoundValues {
  std::vector<Type> types;
  std::vector<std::vector<ExprPtr>> rows;
};
BoundValues bind_values(const std::vector<std::vector<ast::ExprPtr>>& rows);

}  // namespace tally
