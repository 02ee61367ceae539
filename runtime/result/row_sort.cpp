#include "runtime/result/row_sort.h"

#include <algorithm>
#include <memory>

#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

constexpr size_t kChunkRows = 1 << 16;  // below this, one thread sorts

// A strict order over row numbers: the ORDER BY keys, then the row number, so that any
// sort of the numbers gives what a stable sort of the rows would.
class RowOrder {
 public:
  RowOrder(const BoundSelect& query, const ResultRows& rows, const StringHeap* strings)
      : strings_(strings) {
    for (const auto& key : query.order_by) {
      const Type& type = query.outputs[key.output].expr->type;
      const ResultColumn& column = rows.column(key.output);
      const bool by_word = (type.is_integer() || type.is_datetime() || type.id == TypeId::Time ||
                            type.id == TypeId::Boolean) &&
                           !column.wide();
      keys_.push_back({&column, by_word ? column.words().data() : nullptr, column.nulls().data(),
                       &type, key.descending, key.nulls_first});
    }
  }

  bool operator()(size_t a, size_t b) const {
    for (const Key& key : keys_) {
      const bool x_null = key.nulls[a] != 0, y_null = key.nulls[b] != 0;
      if (x_null || y_null) {
        if (x_null && y_null) continue;
        return x_null ? key.nulls_first : !key.nulls_first;
      }
      const int c =
          key.words ? compare_words(key.words[a], key.words[b])
                    : compare_values(key.column->get(a), key.column->get(b), *key.type, strings_);
      if (c != 0) return key.descending ? c > 0 : c < 0;
    }
    return a < b;
  }

 private:
  // One ORDER BY key with what its comparisons read resolved once: the sort compares
  // tens of millions of times.
  struct Key {
    const ResultColumn* column;
    const int64_t* words;  // set where the values order as their signed words
    const uint8_t* nulls;
    const Type* type;
    bool descending, nulls_first;
  };

  // Values that order as their signed words (integers, dates, times, booleans).
  static int compare_words(int64_t x, int64_t y) { return x < y ? -1 : (x > y ? 1 : 0); }

  const StringHeap* strings_;
  std::vector<Key> keys_;
};

size_t chunk_count(size_t n) { return std::max<size_t>(1, (n + kChunkRows - 1) / kChunkRows); }

// How many of the first k items of the merge of a[0, m) and b[0, l) come from a, where
// std::merge takes a's item on ties: lets one merge be cut into pieces merged on their own.
size_t merge_split(const size_t* a, size_t m, const size_t* b, size_t l, size_t k,
                   const RowOrder& less) {
  size_t low = k > l ? k - l : 0, high = std::min(k, m);
  while (low < high) {
    const size_t i = low + (high - low) / 2;  // a[i] belongs in the first k when !(b[k-i-1] < a[i])
    if (!less(b[k - i - 1], a[i])) {
      low = i + 1;
    } else {
      high = i;
    }
  }
  return low;
}

// One round of merges: runs of `width` items of `from`, neighbours merged into `to`. Each
// pair's output is cut into pieces of kChunkRows so that the last rounds, with few pairs,
// still use every core.
void merge_round(const size_t* from, size_t* to, size_t n, size_t width, const RowOrder& less) {
  const size_t pairs = (n + 2 * width - 1) / (2 * width);
  const size_t pieces = (2 * width + kChunkRows - 1) / kChunkRows;  // per pair
  run_parallel(pairs * pieces, [&](size_t task) {
    const size_t begin = task / pieces * 2 * width;
    const size_t middle = std::min(n, begin + width), end = std::min(n, begin + 2 * width);
    const size_t first = std::min(end - begin, task % pieces * kChunkRows);
    const size_t last = std::min(end - begin, first + kChunkRows);
    if (first == last) return;
    const size_t* a = from + begin;
    const size_t* b = from + middle;
    const size_t m = middle - begin, l = end - middle;
    const size_t a_first = merge_split(a, m, b, l, first, less);
    const size_t a_last = merge_split(a, m, b, l, last, less);
    std::merge(a + a_first, a + a_last, b + (first - a_first), b + (last - a_last),
               to + begin + first, less);
  });
}

// Chunks sorted on their own threads, then merged pairwise into a second buffer and back,
// each round cut into pieces on all cores. The round count decides where the chunks are
// sorted, so that the last round writes the returned vector.
std::vector<size_t> all_rows(size_t n, const RowOrder& less) {
  const size_t chunks = chunk_count(n);
  const size_t per_chunk = (n + chunks - 1) / chunks;
  size_t rounds = 0;
  for (size_t width = per_chunk; width < n; width *= 2) ++rounds;
  std::vector<size_t> order(n);
  std::unique_ptr<size_t[]> scratch(new size_t[n]);  // unwritten: every round fills it
  size_t* from = rounds % 2 == 0 ? order.data() : scratch.get();
  size_t* to = rounds % 2 == 0 ? scratch.get() : order.data();
  run_parallel(chunks, [&](size_t c) {
    const size_t begin = std::min(n, c * per_chunk), end = std::min(n, begin + per_chunk);
    for (size_t i = begin; i < end; ++i) from[i] = i;
    std::sort(from + begin, from + end, less);
  });
  for (size_t width = per_chunk; width < n; width *= 2) {
    merge_round(from, to, n, width, less);
    std::swap(from, to);
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
