// Runs independent tasks on all the CPUs the process may use (std::thread), for the
// generators, the .tbl writer and the COPY loader.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "runtime/storage/table.h"

namespace tally {

// Threads the parallel helpers use: the CPUs this process may run on, at least 1.
size_t worker_threads();

// Runs task(0) .. task(count - 1), each exactly once, on up to worker_threads() threads.
// If tasks throw, the exception of the lowest-numbered failing task is rethrown after all
// have finished, so the error reported does not depend on scheduling.
void run_parallel(size_t count, const std::function<void(size_t task)>& task);

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
