// Queries with WITH, derived tables, VALUES, range(), set operations or subqueries
// (runtime/session/query_forms.h): the parts run first, on the CPU engine, and the query
// around them runs on the device the session chose. Set operation sides are whole queries
// of the statement and run on that device too.
#include <fmt/format.h>

#include "compiler/bind/binder.h"
#include "compiler/parse/ast_walk.h"
#include "runtime/session/database.h"
#include "runtime/session/file_tables.h"
#include "runtime/session/query_forms.h"
#include "runtime/session/query_scope.h"
#include "runtime/session/result_table.h"
#include "runtime/session/row_sources.h"
#include "runtime/session/set_operations.h"

namespace tally {

namespace {

// Runs `step`, giving its errors without a location the location `at`.
template <class Step>
auto located(SourceLocation at, Step&& step) {
  try {
    return step();
  } catch (const Error& e) {
    if (e.location()) throw;
    throw Error(e.kind(), e.what(), at);
  }
}

// A set operation side that is itself a set operation and nothing more.
bool is_bare_set_operation(const ast::SelectStmt& s) {
  return s.from && s.from->derived == ast::DerivedKind::SetOperation && s.with.empty() &&
         s.items.size() == 1 && s.items[0].star && !s.where && s.group_by.empty() && !s.having &&
         s.order_by.empty() && !s.limit && !s.offset && !s.distinct;
}

// Options for a query run inside the statement: no plan, source or parameters of its own.
ExecOptions inner_options(const ExecOptions& options) {
  ExecOptions inner = options;
  inner.explain = false;
  inner.emit_cuda = false;
  inner.compile_only = false;
  inner.parameters.clear();
  return inner;
}

}  // namespace

StatementOutcome Database::run_query_forms(const ast::SelectStmt& stmt, int parameter_count,
                                           const ExecOptions& options) {
  if (parameter_count > 0) {
    throw Error(ErrorKind::Unsupported,
                "? parameters in a query with WITH, subqueries, VALUES, range() or UNION / "
                "INTERSECT / EXCEPT are not supported",
                first_parameter(stmt).value_or(SourceLocation{}));
  }
  QueryScope root(*this);
  return run_query(stmt, root, options);
}

StatementOutcome Database::run_query(const ast::SelectStmt& stmt, const QueryScope& scope,
                                     const ExecOptions& options) {
  QueryScope local(scope);
  for (const auto& cte : stmt.with) {
    Result rows = query_result(*cte.query, local, host_query_options(options));
    local.add(
        located(cte.location, [&] { return table_from_result(cte.name, rows, cte.columns); }));
  }
  // The FROM item's table; subqueries see the WITH queries but not it.
  QueryScope from_scope(local);
  TablePtr input;
  if (stmt.from && stmt.from->derived != ast::DerivedKind::None) {
    input = derived_table(*stmt.from, local, options);
    from_scope.add(input);
  } else if (stmt.from && !stmt.from->is_file) {
    input = local.table(stmt.from->name);
  }
  std::string outer_name = !stmt.from                 ? ""
                           : stmt.from->alias.empty() ? stmt.from->name
                                                      : stmt.from->alias;
  SubqueryValues subqueries;
  for (const ast::Expr* node : ast::subquery_expressions(stmt)) {
    Result rows;
    try {
      rows = query_result(*node->subquery, local, host_query_options(options));
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::Binder) {
        refuse_if_correlated(*node->subquery, input ? &input->schema : nullptr, outer_name, local);
      }
      throw;
    }
    subqueries.emplace(node, subquery_result(*node, rows));
  }
  StatementOutcome outcome;
  if (stmt.from && stmt.from->is_file) {
    FileSelect file = bind_file_select(stmt, local, 0, load_control(options), &subqueries);
    outcome.load = file.stats;
    return run_bound(file.query, options, std::move(outcome), nullptr, std::move(file.input));
  }
  BoundSelect query = bind_select(stmt, from_scope, 0, &subqueries);
  return run_bound(query, options, std::move(outcome), nullptr, input);
}

Result Database::query_result(const ast::SelectStmt& stmt, const QueryScope& scope,
                              const ExecOptions& options) {
  return std::move(*run_query(stmt, scope, inner_options(options)).result);
}

TablePtr Database::derived_table(const ast::TableRef& ref, const QueryScope& scope,
                                 const ExecOptions& options) {
  switch (ref.derived) {
    case ast::DerivedKind::Subquery: {
      Result rows = query_result(*ref.subquery, scope, host_query_options(options));
      return located(ref.location,
                     [&] { return table_from_result(ref.name, rows, ref.column_aliases); });
    }
    case ast::DerivedKind::Values: {
      Result rows = values_result(ref.values);
      return located(ref.location,
                     [&] { return table_from_result(ref.name, rows, ref.column_aliases); });
    }
    case ast::DerivedKind::Series:
      return series_table(ref);
    case ast::DerivedKind::SetOperation:
    case ast::DerivedKind::None:
      break;
  }
  Result rows = set_operation_result(*ref.set_operation, scope, options);
  return located(ref.location,
                 [&] { return table_from_result(ref.name, rows, ref.column_aliases); });
}

Result Database::set_operation_result(const ast::SetOperation& operation, const QueryScope& scope,
                                      const ExecOptions& options) {
  auto side = [&](const ast::SelectStmt& query) {
    return is_bare_set_operation(query)
               ? set_operation_result(*query.from->set_operation, scope, options)
               : query_result(query, scope, options);
  };
  Result left = side(*operation.left);
  Result right = side(*operation.right);
  return combine_results(operation, left, right);
}

}  // namespace tally
