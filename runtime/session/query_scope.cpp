#include "runtime/session/query_scope.h"

#include "runtime/session/database.h"

namespace tally {

const TableSchema* QueryScope::find_table(std::string_view name) const {
  if (auto found = tables_.find(name); found != tables_.end()) return &found->second->schema;
  return outer_ ? outer_->find_table(name) : database_.find_table(name);
}

std::vector<std::string> QueryScope::table_names() const {
  std::vector<std::string> names = outer_ ? outer_->table_names() : database_.table_names();
  for (const auto& [name, table] : tables_) names.push_back(name);
  return names;
}

TablePtr QueryScope::table(std::string_view name) const {
  if (auto found = tables_.find(name); found != tables_.end()) return found->second;
  return outer_ ? outer_->table(name) : database_.table(name);
}

void QueryScope::add(TablePtr table) {
  std::string name = table->schema.name;
  tables_[name] = std::move(table);
}

}  // namespace tally
