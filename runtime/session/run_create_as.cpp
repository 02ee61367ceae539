// CREATE TABLE t AS SELECT ...: the query's result becomes a table, so that a file read
// once with FROM 'file.csv' can be queried many times (and prepared).
#include <fmt/format.h>

#include "runtime/session/database.h"
#include "runtime/session/result_table.h"

namespace tally {

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
