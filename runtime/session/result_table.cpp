#include "runtime/session/result_table.h"

#include <fmt/format.h>

#include "compiler/common/error.h"

namespace tally {

TablePtr table_from_result(const std::string& name, const Result& result,
                           const std::vector<std::string>& column_aliases) {
  if (column_aliases.size() > result.names.size()) {
    throw Error(ErrorKind::Binder,
                fmt::format("table \"{}\" has {} columns available but {} columns specified", name,
                            result.names.size(), column_aliases.size()));
  }
  auto table = std::make_shared<Table>();
  table->schema.name = name;
  for (size_t c = 0; c < result.names.size(); ++c) {
    const std::string& column = c < column_aliases.size() ? column_aliases[c] : result.names[c];
    if (table->schema.find_column(column) >= 0) {
      throw Error(ErrorKind::Catalog,
                  fmt::format("column \"{}\" specified more than once", column));
    }
    // A bare NULL column has no storage type; PostgreSQL makes such a column text.
    Type type = result.types[c].id == TypeId::Null ? Type::varchar() : result.types[c];
    table->schema.columns.push_back({column, type, false});
    ColumnBuilder builder(type);
    builder.reserve(result.rows.size());
    for (const auto& row : result.rows) builder.append_value(row[c], result.strings.get());
    table->columns.push_back(builder.finish());
  }
  return table;
}

}  // namespace tally
