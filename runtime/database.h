// The catalog of tables and the execution of statements against it. Each statement is
// atomic: a table is replaced whole only when its statement succeeds, so a failing
// statement leaves the catalog as it was.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ast.h"
#include "compiler/catalog.h"
#include "runtime/result.h"
#include "runtime/storage/table.h"

namespace tally {

enum class DeviceChoice { Auto, Cpu, Gpu };

struct ExecOptions {
  DeviceChoice device = DeviceChoice::Auto;
  std::vector<std::string> parameters;  // values for '?', converted to the inferred types
  bool explain = false;                 // also produce the plan text
};

struct Timings {
  double parse_ms = 0;
  double bind_ms = 0;
  double execute_ms = 0;
};

struct StatementOutcome {
  std::string tag;  // "CREATE TABLE", "COPY 6001215", "INSERT 0 3", "SELECT 4"
  std::optional<Result> result;
  std::string explain;
  std::string notice;  // e.g. which engine ran when --device auto chose
  Timings timings;
};

class Database : public Catalog {
 public:
  const TableSchema* find_table(std::string_view name) const override;
  std::vector<std::string> table_names() const override;

  TablePtr table(std::string_view name) const;
  void put_table(TablePtr table);  // adds, or replaces the table of that name

  StatementOutcome execute(const ast::Statement& statement, const ExecOptions& options);

  // Parses the whole script first (a syntax error runs nothing), then runs the statements
  // in order, calling `on_outcome` after each; the first failing statement throws.
  void execute_script(std::string_view sql, const ExecOptions& options,
                      const std::function<void(const StatementOutcome&)>& on_outcome);

 private:
  StatementOutcome run_select(const ast::SelectStmt& stmt, int parameter_count,
                              const ExecOptions& options);
  StatementOutcome run_create(const ast::CreateTableStmt& stmt);
  StatementOutcome run_drop(const ast::DropTableStmt& stmt);
  StatementOutcome run_copy(const ast::CopyStmt& stmt);
  StatementOutcome run_insert(const ast::InsertStmt& stmt);
  TablePtr existing_table(const std::string& name) const;  // throws if missing

  mutable std::mutex mutex_;
  std::map<std::string, TablePtr, std::less<>> tables_;
};

}  // namespace tally
