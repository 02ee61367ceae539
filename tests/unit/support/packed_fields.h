// Bit-packed test columns of a chosen width, as the host stores them, for the tests of the
// device layout (tests/unit/device_layout_test.cpp) and of the GPU's decoders of it
// (tests/gpu/decode_test.cpp). The fields are read back through the Column, so the tests
// compare the device layout with what the CPU engine decodes.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "compiler/common/types.h"
#include "runtime/storage/column.h"

namespace tally::test {

struct PackedFields {
  uint32_t bits = 0;
  int64_t base = 0;
  std::vector<uint64_t> words;     // row by row, as Column::packed_words()
  std::vector<uint64_t> fields;    // each row's field: value - base, 0 under a NULL
  std::vector<uint64_t> validity;  // as Column::validity_words(); empty: no NULLs
  size_t rows() const { return fields.size(); }
};

inline uint64_t field_mask(uint32_t bits) {
  return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// `rows` random fields of exactly `bits` bits (0..64): row 0 all ones and row 1 zero pin the
// width; with `with_nulls`, about a third of the rows from 2 on are NULL. A ColumnBuilder
// packs them wherever a Column can have that width (0 bits, or 1..63 bits over two rows or
// more). Elsewhere (64 bits, where a Column stays Plain, or a single row) no two fields
// share a 64-bit word, so the words are the fields themselves and the trailing zero word.
inline PackedFields make_packed_fields(uint32_t bits, size_t rows, uint64_t seed,
                                       bool with_nulls = false) {
  std::mt19937_64 rng(seed);
  const uint64_t mask = field_mask(bits);
  PackedFields packed;
  packed.bits = bits;
  packed.base = -static_cast<int64_t>(rng() % 1000000) - 1;
  std::vector<uint64_t> fields(rows);
  std::vector<bool> valid(rows, true);
  for (size_t row = 0; row < rows; ++row) {
    fields[row] = row == 0 ? mask : row == 1 ? 0 : rng() & mask;
    if (with_nulls && row >= 2 && rng() % 3 == 0) valid[row] = false, fields[row] = 0;
  }
  if (bits < 64 && (bits == 0 || rows >= 2)) {
    ColumnBuilder builder(Type::bigint());
    for (size_t row = 0; row < rows; ++row) {
      if (valid[row])
        builder.append_int(static_cast<int64_t>(static_cast<uint64_t>(packed.base) + fields[row]));
      else
        builder.append_null();
    }
    const ColumnPtr column = builder.finish();
    REQUIRE(column->encoding() == Encoding::BitPacked);
    REQUIRE(column->bits() == static_cast<int>(bits));
    packed.base = column->base();
    packed.words = column->packed_words();
    packed.validity = column->validity_words();
    for (size_t row = 0; row < rows; ++row) {
      packed.fields.push_back(static_cast<uint64_t>(column->get_int(row)) -
                              static_cast<uint64_t>(packed.base));
    }
    return packed;
  }
  packed.fields = fields;
  packed.words = fields;
  packed.words.push_back(0);
  if (with_nulls && rows > 2) {
    packed.validity.assign((rows + 63) / 64, ~uint64_t{0});
    for (size_t row = 0; row < rows; ++row) {
      if (!valid[row]) packed.validity[row / 64] &= ~(uint64_t{1} << (row % 64));
    }
  }
  return packed;
}

}  // namespace tally::test
