// SET, RESET and SHOW: the session's settings (runtime/session/settings.h), and SHOW TABLES.
#include <fmt/format.h>

#include "runtime/session/database.h"
#include "runtime/session/settings.h"

namespace tally {

StatementOutcome Database::run_set(const ast::SetStmt& stmt) {
  std::lock_guard lock(settings_mutex_);
  if (stmt.all) {
    settings_->reset_all();
    return tagged("RESET");
  }
  if (stmt.reset) {
    settings_->reset(stmt.name, stmt.location);
    return tagged("RESET");
  }
  settings_->set(stmt.name, stmt.value, stmt.location, stmt.value_location);
  return tagged("SET");
}

// SHOW name: one row, one column named after the setting (PostgreSQL); SHOW ALL: name,
// setting and description; SHOW TABLES: the tables' names in order (DuckDB).
StatementOutcome Database::run_show(const ast::ShowStmt& stmt, const ExecOptions& options) {
  StatementOutcome outcome;
  if (stmt.what == ast::ShowStmt::What::Tables) {
    std::vector<std::vector<std::string>> rows;
    for (const std::string& name : table_names()) rows.push_back({name});
    outcome.result = text_result({"name"}, rows);
  } else if (stmt.what == ast::ShowStmt::What::AllSettings) {
    std::vector<std::vector<std::string>> rows;
    std::lock_guard lock(settings_mutex_);
    for (const SettingRow& row : settings_->show_all(options)) {
      rows.push_back({row.name, row.value, row.description});
    }
    outcome.result = text_result({"name", "setting", "description"}, rows);
  } else {
    std::lock_guard lock(settings_mutex_);
    std::string value = settings_->show(stmt.name, options, stmt.location);
    outcome.result = text_result({stmt.name}, {{value}});
  }
  outcome.tag = fmt::format("SHOW {}", outcome.result->rows.size());
  return outcome;
}

}  // namespace tally
