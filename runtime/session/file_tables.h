// Files in FROM ('sales.csv', read_csv(...)): loaded into a table for one statement, which
// the binder sees beside the Database's tables. The binder never reads files itself.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/bind/catalog.h"
#include "compiler/parse/ast.h"
#include "runtime/load/load_report.h"
#include "runtime/storage/table.h"

namespace tally {

// Sniffs and loads the file `ref` names (ref.is_file) into a table named ref.name. Errors
// carry the location of the path in the statement. `control` and `stats` as for copy_into.
TablePtr load_file_table(const ast::TableRef& ref, const LoadControl& control, LoadStats* stats);

// The tables of `base` and, when not null, `file`.
class FileTableCatalog : public Catalog {
 public:
  FileTableCatalog(const Catalog& base, TablePtr file) : base_(base), file_(std::move(file)) {}
  const TableSchema* find_table(std::string_view name) const override;
  std::vector<std::string> table_names() const override;

 private:
  const Catalog& base_;
  TablePtr file_;
};

}  // namespace tally
