// WITH queries, derived tables, VALUES, range(), set operations and subquery expressions.
// The session runs them before binding the query around them (Database::run_query in
// runtime/session/run_query_forms.cpp): each WITH query and derived table is materialised
// into a temporary table of the statement's QueryScope (runtime/session/query_scope.h),
// each subquery expression becomes constants (compiler/bind/subquery_values.h), and the
// outer query then binds and runs like any other, on the device the session chose. Only
// uncorrelated subqueries run: one that names a column of the query around it is refused.
#pragma once

#include <optional>
#include <string>

#include "compiler/bind/catalog.h"
#include "compiler/bind/subquery_values.h"
#include "compiler/parse/ast.h"
#include "runtime/result/result.h"

namespace tally {

// A subquery's result as the binder reads it. Throws PostgreSQL's errors: a scalar
// subquery of several columns or rows, an IN subquery of several columns.
SubqueryResult subquery_result(const ast::Expr& node, const Result& result);

// Called when binding subquery `inner` failed with a Binder error: throws
// Error(Unsupported) "correlated subqueries are not supported" at the first column
// reference in it that names a column of the outer FROM table (`outer`, referred to as
// `outer_name`) and no column of its own FROM table; returns otherwise.
void refuse_if_correlated(const ast::SelectStmt& inner, const TableSchema* outer,
                          const std::string& outer_name, const Catalog& scope);

// The location of the first `?` in `select`, when there is one.
std::optional<SourceLocation> first_parameter(const ast::SelectStmt& select);

}  // namespace tally
