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
      : query_(query), rows_(rows), strings_(strings) {
    for (const auto& key : query.order_by) {
      const Type& type = query.outputs[key.output].expr->type;
      const bool by_word = (type.is_integer() || type.is_datetime() || type.id == TypeId::Time ||
                            type.id == TypeId::Boolean) &&
                           !rows.column(key.output).wide();
      by_word_.push_back(by_word);
    }
  }

  bool operator()(size_t a, size_t b) const {
    for (size_t k = 0; k < query_.order_by.size(); ++k) {
      const SortKey& key = query_.order_by[k];
      const ResultColumn& column = rows_.column(key.output);
      const bool x_null = column.is_null(a), y_null = column.is_null(b);
      if (x_null || y_null) {
        if (x_null && y_null) continue;
        return x_null ? key.nulls_first : !key.nulls_first;
      }
      const int c = by_word_[k] ? compare_words(column.word(a), column.word(b))
                                : compare_values(column.get(a), column.get(b),
                                                 query_.outputs[key.output].expr->type, strings_);
      if (c != 0) return key.descending ? c > 0 : c < 0;
    }
    return a < b;
  }

 private:
  // Values that order as their signed words (integers, dates, times, booleans).
  static int compare_words(int64_t x, int64_t y) { return x < y ? -1 : (x > y ? 1 : 0); }

  const BoundSelect& query_;
  const ResultRows& rows_;
  const StringHeap* strings_;
  std::vector<bool> by_word_;  // per ORDER BY key: compared as words
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
