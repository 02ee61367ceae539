#include "runtime/load/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>

namespace tally {

std::vector<ColumnBuilder> builders_for(const TableSchema& schema) {
  std::vector<ColumnBuilder> builders;
  builders.reserve(schema.columns.size());
  for (const auto& column : schema.columns) builders.emplace_back(column.type);
  return builders;
}

TablePtr join_parts(TableSchema schema, std::vector<std::vector<ColumnBuilder>> parts) {
  auto table = std::make_shared<Table>();
  table->columns.resize(schema.columns.size());
  run_parallel(schema.columns.size(), [&](size_t c) {
    std::vector<ColumnBuilder> column_parts;
    column_parts.reserve(parts.size());
    for (auto& part : parts) column_parts.push_back(std::move(part[c]));
    table->columns[c] = ColumnBuilder::finish_parts(column_parts);
  });
  table->schema = std::move(schema);
  return table;
}

TablePtr build_table_parallel(TableSchema schema, size_t items, const FillChunk& fill) {
  // A few chunks per thread evens out chunks that happen to be slower.
  size_t chunks = std::clamp<size_t>(items / 16384, 1, worker_threads() * 4);
  std::vector<std::vector<ColumnBuilder>> parts(chunks);
  run_parallel(chunks, [&](size_t chunk) {
    parts[chunk] = builders_for(schema);
    fill(parts[chunk], items * chunk / chunks, items * (chunk + 1) / chunks);
  });
  return join_parts(std::move(schema), std::move(parts));
}

}  // namespace tally
