// WITH, set operations, VALUES, derived tables, range()/generate_series() and subquery
// expressions. Each becomes plain AST that the session runs before binding
// (runtime/session/query_forms.h): a set operation or a bare VALUES is a
// `SELECT * FROM <derived table>` carrying the trailing ORDER BY / LIMIT.
#include <fmt/format.h>

#include <set>

#include "compiler/parse/transformer.h"

namespace tally {

namespace {

// The query that reads every column of one derived table: how a set operation or a bare
// VALUES statement is represented.
ast::SelectStmt select_all_from(ast::TableRef from) {
  ast::SelectStmt select;
  ast::SelectItem star;
  star.star = true;
  star.location = from.location;
  select.items.push_back(std::move(star));
  select.from = std::move(from);
  return select;
}

bool has_order_or_limit(const ast::SelectStmt& select) {
  return !select.order_by.empty() || select.limit || select.offset;
}

// A query whose ORDER BY, LIMIT or WITH must stay its own: read as a derived table.
ast::SelectStmt as_derived_table(ast::SelectStmt query, SourceLocation location) {
  ast::TableRef from;
  from.derived = ast::DerivedKind::Subquery;
  from.location = location;
  from.name = "unnamed_subquery";
  from.subquery = std::make_shared<ast::SelectStmt>(std::move(query));
  return select_all_from(std::move(from));
}

}  // namespace

ast::SelectStmt Transformer::transform_select(P::SelectStatementContext& ctx) {
  std::vector<ast::CommonTableExpr> with;
  if (auto* clause = ctx.withClause()) with = transform_with(*clause);
  ast::SelectStmt select = transform_set_operations(ctx);
  if (ctx.orderByClause() || ctx.limitClause()) {
    // `((SELECT ... LIMIT 5)) LIMIT 2`: the inner clauses run first.
    if (has_order_or_limit(select)) {
      select = as_derived_table(std::move(select), location_of(ctx.start));
    }
    if (auto* order_by = ctx.orderByClause()) transform_order_by(*order_by, select);
    if (auto* limit = ctx.limitClause()) transform_limit(*limit, select);
  }
  select.with = std::move(with);
  return select;
}

std::vector<ast::CommonTableExpr> Transformer::transform_with(P::WithClauseContext& ctx) {
  if (ctx.RECURSIVE() != nullptr) {
    throw Error(ErrorKind::Unsupported, "WITH RECURSIVE is not supported",
                location_of(ctx.RECURSIVE()->getSymbol()));
  }
  std::vector<ast::CommonTableExpr> ctes;
  std::set<std::string> names;
  for (P::CommonTableExpressionContext* item : ctx.commonTableExpression()) {
    ast::CommonTableExpr cte;
    cte.name = transform_identifier(*item->identifier());
    cte.location = location_of(item->start);
    if (!names.insert(cte.name).second) {
      throw Error(ErrorKind::Binder,
                  fmt::format("WITH query name \"{}\" specified more than once", cte.name),
                  cte.location);
    }
    cte.columns = transform_column_list(item->columnList());
    cte.query = std::make_shared<ast::SelectStmt>(transform_select(*item->selectStatement()));
    ctes.push_back(std::move(cte));
  }
  return ctes;
}

// INTERSECT binds tighter than UNION and EXCEPT, which associate to the left (SQL standard,
// PostgreSQL, DuckDB). ORDER BY / LIMIT written after the last query apply to the whole.
ast::SelectStmt Transformer::transform_set_operations(P::SelectStatementContext& ctx) {
  std::vector<P::SetOperationContext*> operations = ctx.setOperation();
  // A lone parenthesised SELECT is that query, its ORDER BY and LIMIT included.
  P::QueryTermContext* term = ctx.queryTerm();
  if (operations.empty() && term->LPAREN()) return transform_select_core(*term->selectCore());
  ast::SelectStmt first = transform_query_term(*ctx.queryTerm());
  if (operations.empty()) return first;
  std::vector<ast::SelectStmt> terms;
  terms.push_back(std::move(first));
  for (P::SetOperationContext* operation : operations) {
    if (has_order_or_limit(terms.back())) {
      throw_syntax_error(operation->start,
                         "ORDER BY and LIMIT go after the last query of a UNION, INTERSECT or "
                         "EXCEPT (or put the query in parentheses in FROM)");
    }
    terms.push_back(transform_query_term(*operation->queryTerm()));
  }
  // The trailing ORDER BY / LIMIT leave the last query for the whole result.
  ast::SelectStmt& last = terms.back();
  std::vector<ast::OrderItem> order_by = std::move(last.order_by);
  ast::ExprPtr limit = std::move(last.limit);
  ast::ExprPtr offset = std::move(last.offset);
  last.order_by.clear();

  // Fold INTERSECT runs first, then UNION / EXCEPT from the left.
  std::vector<ast::SelectStmt> operands;
  std::vector<P::SetOperationContext*> loose;
  operands.push_back(std::move(terms[0]));
  for (size_t i = 0; i < operations.size(); ++i) {
    if (operations[i]->INTERSECT() != nullptr) {
      operands.back() =
          combine(*operations[i], std::move(operands.back()), std::move(terms[i + 1]));
    } else {
      loose.push_back(operations[i]);
      operands.push_back(std::move(terms[i + 1]));
    }
  }
  ast::SelectStmt result = std::move(operands[0]);
  for (size_t i = 0; i < loose.size(); ++i) {
    result = combine(*loose[i], std::move(result), std::move(operands[i + 1]));
  }
  result.order_by = std::move(order_by);
  result.limit = std::move(limit);
  result.offset = std::move(offset);
  return result;
}

ast::SelectStmt Transformer::combine(P::SetOperationContext& ctx, ast::SelectStmt left,
                                     ast::SelectStmt right) {
  auto operation = std::make_shared<ast::SetOperation>();
  operation->op = ctx.UNION() != nullptr       ? ast::SetOperator::Union
                  : ctx.INTERSECT() != nullptr ? ast::SetOperator::Intersect
                                               : ast::SetOperator::Except;
  operation->all = ctx.ALL() != nullptr;
  operation->location = location_of(ctx.start);
  operation->left = std::make_shared<ast::SelectStmt>(std::move(left));
  operation->right = std::make_shared<ast::SelectStmt>(std::move(right));
  ast::TableRef from;
  from.derived = ast::DerivedKind::SetOperation;
  from.name = "unnamed_subquery";
  from.location = operation->location;
  from.set_operation = std::move(operation);
  return select_all_from(std::move(from));
}

ast::SelectStmt Transformer::transform_query_term(P::QueryTermContext& ctx) {
  if (ctx.LPAREN()) {
    ast::SelectStmt query = transform_select_core(*ctx.selectCore());
    if (!has_order_or_limit(query)) return query;
    return as_derived_table(std::move(query), location_of(ctx.start));
  }
  if (auto* core = ctx.selectCore()) return transform_select_core(*core);
  ast::TableRef from;
  from.derived = ast::DerivedKind::Values;
  from.name = "valueslist";  // DuckDB's name for it
  from.location = location_of(ctx.start);
  from.values = transform_values_list(*ctx.valuesList());
  return select_all_from(std::move(from));
}

std::vector<std::vector<ast::ExprPtr>> Transformer::transform_values_list(
    P::ValuesListContext& ctx) {
  std::vector<std::vector<ast::ExprPtr>> rows;
  for (P::ValuesRowContext* row : ctx.valuesRow()) {
    rows.push_back(transform_expressions(row->expression()));
    if (rows.back().size() != rows.front().size()) {
      throw Error(ErrorKind::Binder, "VALUES lists must all be the same length",
                  location_of(row->start));
    }
  }
  return rows;
}

ast::TableRef Transformer::transform_derived_table(P::DerivedTableContext& ctx) {
  ast::TableRef ref;
  ref.derived = ast::DerivedKind::Subquery;
  ref.location = location_of(ctx.start);
  ref.subquery = std::make_shared<ast::SelectStmt>(transform_select(*ctx.selectStatement()));
  ref.name = ctx.identifier() ? transform_identifier(*ctx.identifier()) : "unnamed_subquery";
  ref.column_aliases = transform_column_list(ctx.columnList());
  return ref;
}

// range(n), range(a, b [, step]) (end exclusive) and generate_series(a, b [, step]) (end
// inclusive), DuckDB's table functions of one BIGINT column named after the function.
ast::TableRef Transformer::transform_series_function(P::SeriesFunctionContext& ctx) {
  std::vector<P::IdentifierContext*> names = ctx.identifier();
  std::string function = lower_ascii(transform_identifier(*names[0]));
  if (function == "read_csv" || function == "read_csv_auto") {
    throw_syntax_error(ctx.start, fmt::format("{} takes a file name string first", function));
  }
  if (function != "range" && function != "generate_series") {
    throw_unsupported(ctx.start, fmt::format("table functions other than read_csv, range and "
                                             "generate_series ({})",
                                             function));
  }
  ast::TableRef ref;
  ref.derived = ast::DerivedKind::Series;
  ref.location = location_of(ctx.start);
  ref.series_function = function;
  ref.series_arguments = transform_expressions(ctx.expression());
  if (ref.series_arguments.empty() || ref.series_arguments.size() > 3) {
    throw Error(ErrorKind::Binder,
                fmt::format("{}() takes 1 to 3 arguments (start, stop, step), not {}", function,
                            ref.series_arguments.size()),
                ref.location);
  }
  ref.name = names.size() > 1 ? transform_identifier(*names[1]) : function;
  ref.column_aliases = transform_column_list(ctx.columnList());
  return ref;
}

ast::ExprPtr Transformer::transform_subquery(P::SelectStatementContext& query, ast::ExprKind kind,
                                             antlr4::Token* start, antlr4::Token* stop) {
  ast::ExprPtr expr = make_expr(kind, start, stop);
  expr->subquery = std::make_shared<ast::SelectStmt>(transform_select(query));
  return expr;
}

}  // namespace tally
