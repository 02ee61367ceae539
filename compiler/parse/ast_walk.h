// Walks over the expressions of a SELECT: those of one query level, or of every level
// (WITH queries, derived tables, set operation sides and subqueries included). The walks
// keep their own stack, so a 20,000-term chain costs no deeper recursion than a leaf.
#pragma once

#include <functional>
#include <vector>

#include "compiler/parse/ast.h"

namespace tally::ast {

// Every expression node of this level (items, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT,
// OFFSET), not those inside its subqueries or FROM item.
void for_each_level_expression(const SelectStmt& select,
                               const std::function<void(const Expr&)>& fn);

// Every expression node of every level below and including `select`.
void for_each_expression(const SelectStmt& select, const std::function<void(const Expr&)>& fn);

// The ScalarSubquery, InSubquery and Exists nodes of this level, in text order.
std::vector<const Expr*> subquery_expressions(const SelectStmt& select);

// True when the session must run parts of the query first: WITH, a derived table in FROM
// (subquery, VALUES, range(), set operation) or a subquery expression at this level.
bool uses_query_forms(const SelectStmt& select);

}  // namespace tally::ast
