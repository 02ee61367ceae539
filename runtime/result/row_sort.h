// ORDER BY over a result's rows on all cores: the rows a stable sort by the ORDER BY keys
// would put first, and only as many as the LIMIT needs (a top-k selection when that is a
// small part of the rows).
#pragma once

#include <cstddef>
#include <vector>

#include "compiler/common/string_heap.h"
#include "compiler/ir/query.h"

namespace tally {

// Sorts `rows` (every output of the query, hidden ones too) by the query's ORDER BY, ties
// in their current order, and keeps the first `needed` of them (all when needed is larger).
void sort_rows(const BoundSelect& query, std::vector<std::vector<Value>>& rows,
               const StringHeap* strings, size_t needed);

}  // namespace tally
