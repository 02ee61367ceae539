// What the planners (the GPU's, and the CPU engine's vector path) know of each scan column
// of a query, read from the table's column statistics.
#pragma once

#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/column_stats.h"
#include "runtime/storage/table.h"

namespace tally {

std::vector<ColumnStats> scan_stats(const BoundSelect& query, const Table& table);

}  // namespace tally
