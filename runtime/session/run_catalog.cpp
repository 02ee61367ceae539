// DESCRIBE t and EXPLAIN SELECT ...: what the catalog and the binder know, as rows.
#include <fmt/format.h>

#include <sstream>

#include "compiler/bind/binder.h"
#include "compiler/parse/ast_walk.h"
#include "runtime/session/database.h"
#include "runtime/session/file_tables.h"

namespace tally {

// DuckDB's DESCRIBE columns that tally has: column_name, column_type, null (YES / NO).
StatementOutcome Database::run_describe(const ast::DescribeStmt& stmt) {
  TablePtr described = existing_table(stmt.table);
  std::vector<std::vector<std::string>> rows;
  for (const ColumnSchema& column : described->schema.columns) {
    rows.push_back({column.name, column.type.to_string(), column.not_null ? "NO" : "YES"});
  }
  StatementOutcome outcome;
  outcome.result = text_result({"column_name", "column_type", "null"}, rows);
  outcome.tag = fmt::format("DESCRIBE {}", rows.size());
  return outcome;
}

// The plan that --explain prints, a line a row, under PostgreSQL's column name. The query
// is bound, not run: a file in FROM is read for its columns.
StatementOutcome Database::run_explain(const ast::ExplainStmt& stmt, int parameter_count) {
  std::string plan;
  if (ast::uses_query_forms(stmt.select)) {
    // The parts must run before the outer query can be bound; the plan is the outer one's.
    ExecOptions options;
    options.device = DeviceChoice::Cpu;
    options.explain = true;
    plan = run_query_forms(stmt.select, parameter_count, options).explain;
    plan = "WITH queries, derived tables and subqueries: run first on the CPU engine\n" + plan;
  } else if (stmt.select.from && stmt.select.from->is_file) {
    plan = explain(bind_file_select(stmt.select, *this, parameter_count, {}).query);
  } else {
    plan = explain(bind_select(stmt.select, *this, parameter_count));
  }
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(plan);
  for (std::string line; std::getline(lines, line);) rows.push_back({line});
  StatementOutcome outcome;
  outcome.result = text_result({"QUERY PLAN"}, rows);
  outcome.tag = "EXPLAIN";
  return outcome;
}

}  // namespace tally
