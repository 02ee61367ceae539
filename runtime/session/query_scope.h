// The tables one query level sees: the temporary tables its WITH queries and derived
// tables were materialised into, over those of the enclosing levels and the database.
// They live as long as the statement runs, are never saved to a --db store, and hide a
// table of the same name only inside the query that defines them.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/bind/catalog.h"
#include "runtime/storage/table.h"

namespace tally {

class Database;

class QueryScope : public Catalog {
 public:
  explicit QueryScope(const Database& database) : database_(database) {}
  explicit QueryScope(const QueryScope& outer) : database_(outer.database_), outer_(&outer) {}

  const TableSchema* find_table(std::string_view name) const override;
  std::vector<std::string> table_names() const override;

  // The temporary table of that name here or in an enclosing level, else the database's
  // table; null when there is none.
  TablePtr table(std::string_view name) const;
  // Adds a temporary table under its schema name.
  void add(TablePtr table);

 private:
  const Database& database_;
  const QueryScope* outer_ = nullptr;
  std::map<std::string, TablePtr, std::less<>> tables_;
};

}  // namespace tally
