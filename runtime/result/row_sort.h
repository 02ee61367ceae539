// ORDER BY over a result's rows on all cores: the rows a stable sort by the ORDER BY keys
// would put first, and only as many as the LIMIT needs (a top-k selection when that is a
// small part of the rows).
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "compiler/common/run_parallel.h"
#include "compiler/common/string_heap.h"
#include "compiler/ir/query.h"
#include "runtime/result/result_rows.h"

namespace tally {

// The first `needed` of items 0 .. n-1 under the strict order `less`, in order: each chunk
// of items keeps its own first `needed` on its own thread, then the survivors are sorted.
template <class Less>
std::vector<size_t> first_in_order(size_t n, size_t needed, const Less& less) {
  constexpr size_t kChunk = 1 << 16;
  const size_t chunks = std::max<size_t>(1, (n + kChunk - 1) / kChunk);
  std::vector<std::vector<size_t>> kept(chunks);
  run_parallel(chunks, [&](size_t c) {
    std::vector<size_t> items;
    for (size_t i = c * kChunk; i < std::min(n, (c + 1) * kChunk); ++i) items.push_back(i);
    const size_t keep = std::min(needed, items.size());
    std::partial_sort(items.begin(), items.begin() + static_cast<ptrdiff_t>(keep), items.end(),
                      less);
    items.resize(keep);
    kept[c] = std::move(items);
  });
  std::vector<size_t> candidates;
  for (const auto& part : kept) candidates.insert(candidates.end(), part.begin(), part.end());
  const size_t keep = std::min(needed, candidates.size());
  std::partial_sort(candidates.begin(), candidates.begin() + static_cast<ptrdiff_t>(keep),
                    candidates.end(), less);
  candidates.resize(keep);
  return candidates;
}

// The rows of `rows` (every output of the query, hidden ones too) in the query's ORDER BY,
// ties in their current order, the first `needed` of them (all when needed is larger);
// nullopt without an ORDER BY.
std::optional<std::vector<size_t>> sorted_rows(const BoundSelect& query, const ResultRows& rows,
                                               const StringHeap* strings, size_t needed);

}  // namespace tally
