#include "runtime/storage/table.h"

namespace tally {

TablePtr make_empty_table(TableSchema schema) {
  auto table = std::make_shared<Table>();
  for (const auto& column : schema.columns) {
    table->columns.push_back(ColumnBuilder(column.type).finish());
  }
  table->schema = std::move(schema);
  return table;
}

}  // namespace tally
