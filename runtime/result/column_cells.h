// A result column's cells read whole, without a Value a cell: the exports (Arrow, numpy,
// ResultSet's column getters) loop over these. A reader is called with a function from
// row to cell that fits the column's width, so its typed loop is compiled once per width
// and reads the arrays directly; each gives what ResultColumn::get's Value would hold.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

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

}  // namespace tally
