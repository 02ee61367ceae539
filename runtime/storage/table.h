// A table: a schema and one immutable Column per schema column. Changing a table builds
// new columns aside and swaps the whole table, so a failed statement leaves no trace.
#pragma once

#include <memory>
#include <vector>

#include "compiler/bind/catalog.h"
#include "runtime/storage/column.h"

namespace tally {

struct Table {
  TableSchema schema;
  std::vector<ColumnPtr> columns;  // one per schema column, all of equal size
  size_t rows() const { return columns.empty() ? 0 : columns.front()->size(); }
};

using TablePtr = std::shared_ptr<const Table>;

// An empty table with the given schema.
TablePtr make_empty_table(TableSchema schema);

}  // namespace tally
