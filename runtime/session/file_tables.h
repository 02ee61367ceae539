// Files in FROM ('sales.csv', read_csv(...)): sniffed, bound, and loaded for one statement
// into a table the binder sees beside the Database's tables. Only the columns the query
// reads are parsed and stored. The binder never reads files itself.
#pragma once

#include "compiler/bind/catalog.h"
#include "compiler/bind/subquery_values.h"
#include "compiler/ir/query.h"
#include "compiler/parse/ast.h"
#include "runtime/load/load_report.h"
#include "runtime/storage/table.h"

namespace tally {

struct FileSelect {
  BoundSelect query;  // its scan numbered over `input`'s columns
  TablePtr input;     // the columns of the file that the query reads
  LoadStats stats;
};

// Sniffs the file that stmt.from names (stmt.from->is_file), binds `stmt` over it and the
// tables of `base`, and loads the file's columns that the query reads (the first one when
// it reads none, for the row count). Errors about the file carry the location of its path.
// `control` as for copy_into.
// `subqueries` as for bind_select.
FileSelect bind_file_select(const ast::SelectStmt& stmt, const Catalog& base, int parameter_count,
                            const LoadControl& control, const SubqueryValues* subqueries = nullptr);

}  // namespace tally
