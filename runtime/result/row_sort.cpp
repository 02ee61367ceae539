#include "runtime/result/row_sort.h"

#include <algorithm>

#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

constexpr size_t kChunkRows = 1 << 16;  // below this, one thread sorts

// A strict order over row numbers: the ORDER BY keys, then the row number, so that any
// sort of the numbers gives what a stable sort of the rows would.
class RowOrder {
 public:
  RowOrder(const BoundSelect& query, const ResultRows& rows, const StringHeap* strings)
      : query_(query), rows_(rows), strings_(strings) {}

  bool operator()(size_t a, size_t b) const {
    for (const auto& key : query_.order_by) {
      const Value x = rows_.cell(a, key.output);
      const Value y = rows_.cell(b, key.output);
      if (x.null || y.null) {
        if (x.null && y.null) continue;
        return x.null ? key.nulls_first : !key.nulls_first;
      }
      int c = compare_values(x, y, query_.outputs[key.output].expr->type, strings_);
      if (c != 0) return key.descending ? c > 0 : c < 0;
    }
    return a < b;
  }

 private:
  const BoundSelect& query_;
  const ResultRows& rows_;
  const StringHeap* strings_;
};

size_t chunk_count(size_t n) { return std::max<size_t>(1, (n + kChunkRows - 1) / kChunkRows); }

// Chunks sorted on their own threads, then merged pairwise, each round's merges in parallel.
std::vector<size_t> all_rows(size_t n, const RowOrder& less) {
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  const size_t chunks = chunk_count(order.size());
  const size_t per_chunk = (order.size() + chunks - 1) / chunks;
  auto at = [&](size_t i) {
    return order.begin() + static_cast<ptrdiff_t>(std::min(order.size(), i));
  };
  run_parallel(chunks,
               [&](size_t c) { std::sort(at(c * per_chunk), at((c + 1) * per_chunk), less); });
  for (size_t width = per_chunk; width < order.size(); width *= 2) {
    const size_t pairs = (order.size() + 2 * width - 1) / (2 * width);
    run_parallel(pairs, [&](size_t p) {
      std::inplace_merge(at(2 * p * width), at((2 * p + 1) * width), at((2 * p + 2) * width), less);
    });
  }
  return order;
}

}  // namespace

std::optional<std::vector<size_t>> sorted_rows(const BoundSelect& query, const ResultRows& rows,
                                               const StringHeap* strings, size_t needed) {
  if (query.order_by.empty()) return std::nullopt;
  if (rows.empty()) return std::vector<size_t>();
  const RowOrder less(query, rows, strings);
  // A top-k selection when the LIMIT keeps a small part of the rows.
  std::vector<size_t> order = needed < rows.size() / 8 ? first_in_order(rows.size(), needed, less)
                                                       : all_rows(rows.size(), less);
  if (order.size() > needed) order.resize(needed);
  return order;
}

}  // namespace tally
