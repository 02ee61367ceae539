// CREATE TABLE t AS SELECT ...: the query's result becomes a table, so that a file read
// once with FROM 'file.csv' can be queried many times (and prepared).
#include <fmt/format.h>

#include "runtime/session/database.h"

namespace tally {

namespace {

TablePtr table_from_result(const std::string& name, const Result& result) {
  auto table = std::make_shared<Table>();
  table->schema.name = name;
  for (size_t c = 0; c < result.names.size(); ++c) {
    if (table->schema.find_column(result.names[c]) >= 0) {
      throw Error(ErrorKind::Catalog,
                  fmt::format("column \"{}\" specified more than once", result.names[c]));
    }
    // A bare NULL column has no storage type; PostgreSQL makes such a column text.
    Type type = result.types[c].id == TypeId::Null ? Type::varchar() : result.types[c];
    table->schema.columns.push_back({result.names[c], type, false});
    ColumnBuilder builder(type);
    builder.reserve(result.rows.size());
    for (const auto& row : result.rows) builder.append_value(row[c], result.strings.get());
    table->columns.push_back(builder.finish());
  }
  return table;
}

}  // namespace

ExecOptions host_query_options(const ExecOptions& exec) {
  ExecOptions options;
  options.device = DeviceChoice::Cpu;
  options.cpu_threads = exec.cpu_threads;
  options.cpu_path = exec.cpu_path;
  options.cancelled = exec.cancelled;
  options.load_progress = exec.load_progress;
  return options;
}

StatementOutcome Database::run_create_as(const ast::CreateTableStmt& stmt,
                                         const ExecOptions& exec) {
  StatementOutcome select = run_select(*stmt.as_select, 0, host_query_options(exec));
  TablePtr table = table_from_result(stmt.name, *select.result);
  size_t rows = table->rows();
  put_table(std::move(table));
  StatementOutcome outcome = tagged(fmt::format("SELECT {}", rows));
  outcome.load = select.load;
  return outcome;
}

}  // namespace tally
