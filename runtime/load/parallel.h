// Building tables in parallel, for the generators, the .tbl writer and the COPY loader
// (the threads: compiler/common/run_parallel.h).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "compiler/common/run_parallel.h"
#include "runtime/storage/table.h"

namespace tally {

// Builds a table whose rows come from items [0, items): the items are split into
// contiguous chunks, each chunk appends its rows to its own builders (one per schema
// column), and the parts are joined in item order, so the table does not depend on the
// thread count.
using FillChunk =
    std::function<void(std::vector<ColumnBuilder>& columns, size_t begin, size_t end)>;
TablePtr build_table_parallel(TableSchema schema, size_t items, const FillChunk& fill);

// Encodes per-chunk builders (parts[chunk][column]) as one table, chunks in order, one
// column per task.
TablePtr join_parts(TableSchema schema, std::vector<std::vector<ColumnBuilder>> parts);

// One empty builder per schema column.
std::vector<ColumnBuilder> builders_for(const TableSchema& schema);

}  // namespace tally
