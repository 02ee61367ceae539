// A result column's cells read whole, without a Value a cell: the exports (Arrow, numpy,
// ResultSet's column getters) loop over these. A reader is called with a function from
// row to cell that fits the column's width, so its typed loop is compiled once per width
// and reads the arrays directly; each gives what ResultColumn::get's Value would hold.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>

#include "runtime/result/result_rows.h"

namespace tally {

// Calls read(word_of) where word_of(row) is the cell's 64-bit word: Value::i (integers,
// dates, times, strings' ids, BOOLEAN 0/1) or Value::f's bits. A wide column's low word.
template <typename Read>
void read_words(const ResultColumn& column, Read read) {
  if (column.wide()) {
    const int128* cells = column.cells().data();
    read([cells](size_t row) { return static_cast<int64_t>(cells[row]); });
  } else {
    const int64_t* words = column.words().data();
    read([words](size_t row) { return words[row]; });
  }
}

// Calls read(cell_of) where cell_of(row) is Value::d: DECIMAL and HUGEINT unscaled, an
// INTERVAL packed. A narrow column's word, zero-extended as get() leaves Value::d.
template <typename Read>
void read_wide(const ResultColumn& column, Read read) {
  if (column.wide()) {
    const int128* cells = column.cells().data();
    read([cells](size_t row) { return cells[row]; });
  } else {
    const int64_t* words = column.words().data();
    read([words](size_t row) { return static_cast<int128>(static_cast<uint64_t>(words[row])); });
  }
}

// Value::f of a word (REAL and DOUBLE keep a double's bits).
inline double word_double(int64_t word) { return std::bit_cast<double>(word); }

// Rows [first, end) as T, convert(cell_of(row)) each, at byte row * sizeof(T) of `out` (T{}
// under a NULL): the fixed-width exports' loop (Arrow buffers, ResultSet::copy_column).
template <typename T, typename CellOf, typename Convert = std::identity>
void store_cells(const ResultColumn& column, CellOf cell_of, size_t first, size_t end, void* out,
                 Convert convert = {}) {
  auto* bytes = static_cast<uint8_t*>(out);
  const uint8_t* nulls = column.nulls().data();
  for (size_t row = first; row < end; ++row) {
    const T value = nulls[row] ? T{} : static_cast<T>(convert(cell_of(row)));
    std::memcpy(bytes + row * sizeof(T), &value, sizeof(T));
  }
}

// store_cells over the column's words.
template <typename T, typename Convert = std::identity>
void store_words(const ResultColumn& column, size_t first, size_t end, void* out,
                 Convert convert = {}) {
  read_words(column,
             [&](auto word_of) { store_cells<T>(column, word_of, first, end, out, convert); });
}

}  // namespace tally
