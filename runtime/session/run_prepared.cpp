// Prepared SELECTs: parse and bind once, run many times.
#include <fmt/format.h>

#include <chrono>

#include "compiler/bind/binder.h"
#include "compiler/common/elapsed.h"
#include "compiler/parse/ast_walk.h"
#include "compiler/parse/parser.h"
#include "runtime/session/database.h"
#include "runtime/storage/host_memory.h"

namespace tally {

namespace {

const ast::SelectStmt& only_select(const std::vector<ast::Statement>& statements) {
  if (statements.size() != 1) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("a prepared statement must be exactly one SELECT, not {} statements",
                            statements.size()));
  }
  const auto* select = std::get_if<ast::SelectStmt>(&statements.front().body);
  if (!select) {
    throw Error(ErrorKind::Unsupported, "only a SELECT can be prepared");
  }
  return *select;
}

}  // namespace

std::shared_ptr<const PreparedSelect> Database::prepare(std::string_view sql) const {
  std::vector<ast::Statement> statements = parse_script(sql);
  const ast::SelectStmt& select = only_select(statements);
  if (ast::uses_query_forms(select)) {
    throw Error(ErrorKind::Unsupported,
                "a prepared statement cannot use WITH, subqueries, VALUES, range() or UNION / "
                "INTERSECT / EXCEPT; run it as a plain statement");
  }
  if (select.from && select.from->is_file) {
    throw Error(ErrorKind::Unsupported,
                "a prepared statement cannot read a file in FROM; load it first with CREATE "
                "TABLE t AS SELECT * FROM 'file'",
                select.from->location);
  }
  auto prepared = std::make_shared<PreparedSelect>();
  prepared->sql = std::string(sql);
  prepared->query = bind_select(select, *this, statements.front().parameter_count);
  if (!prepared->query.table.empty()) {
    if (const TableSchema* schema = find_table(prepared->query.table)) {
      prepared->bound_schema = *schema;
    }
  }
  return prepared;
}

StatementOutcome Database::execute_prepared(const PreparedSelect& statement,
                                            const ExecOptions& options) {
  const BoundSelect* query = &statement.query;
  // The plan cache holds programs generated from `statement.query`; a rebound query has
  // other column indexes, so it runs with a cache of its own.
  GpuPlanCache* plans = statement.plans.get();
  std::shared_ptr<const PreparedSelect> rebound;
  if (!query->table.empty()) {
    TablePtr input = existing_table(query->table);
    if (!(input->schema.columns == statement.bound_schema.columns)) {
      rebound = prepare(statement.sql);
      query = &rebound->query;
      plans = rebound->plans.get();
    }
  }
  return reporting_out_of_memory("the prepared SELECT", [&] {
    return run_bound(*query, with_settings(options), StatementOutcome{}, plans);
  });
}

}  // namespace tally
