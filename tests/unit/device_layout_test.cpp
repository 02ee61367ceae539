// runtime/gpu/device_layout.h: the lane-transposed device layout of bit-packed columns
// holds every field of the host Column where its header says, and nothing else. Fields are
// read back both through lane_transposed_field (the GPU's arithmetic, on the host) and bit
// by bit from the layout's definition, so a mistake shared by the transposer and the
// decoder still shows.
#include "runtime/gpu/device_layout.h"

#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "tests/unit/support/packed_fields.h"

namespace tally {
namespace {

// Field `row` of the device layout, bit by bit: row b * 1024 + 32 j + L is bits
// [j * bits, (j + 1) * bits) of lane L's stream, whose bit s is bit s % 32 of word
// b * 32 * bits + 32 (s / 32) + L.
uint64_t read_field_slowly(const std::vector<uint32_t>& words, uint64_t row, uint32_t bits) {
  const uint64_t block = row / 1024, step = (row / 32) % 32, lane = row % 32;
  uint64_t field = 0;
  for (uint32_t k = 0; k < bits; ++k) {
    const uint64_t stream_bit = step * bits + k;
    const uint32_t word = words[block * 32 * bits + 32 * (stream_bit / 32) + lane];
    field |= uint64_t{(word >> (stream_bit % 32)) & 1} << k;
  }
  return field;
}

void check_layout(uint32_t bits, uint64_t rows, bool slow_reader) {
  CAPTURE(bits);
  CAPTURE(rows);
  const test::PackedFields packed = test::make_packed_fields(bits, rows, bits * 7919 + rows);
  const std::vector<uint32_t> words = lane_transposed_words(packed.words, rows, bits);
  // Whole blocks of 1024 rows, each 1024 * bits bits = 32 * bits words.
  const uint64_t blocks = (rows + 1023) / 1024;
  CHECK(words.size() == blocks * 32 * bits);
  CHECK(lane_transposed_word_count(rows, bits) == words.size());

  uint64_t wrong = 0, wrong_slowly = 0, field_ones = 0;
  for (uint64_t row = 0; row < rows; ++row) {
    wrong += lane_transposed_field(words, row, bits) != packed.fields[row];
    if (slow_reader) wrong_slowly += read_field_slowly(words, row, bits) != packed.fields[row];
    field_ones += std::popcount(packed.fields[row]);
  }
  CHECK(wrong == 0);
  CHECK(wrong_slowly == 0);
  // The last block's rows past the end read as zero...
  uint64_t padding_nonzero = 0;
  for (uint64_t row = rows; row < blocks * 1024; ++row) {
    padding_nonzero += lane_transposed_field(words, row, bits) != 0;
    if (slow_reader) padding_nonzero += read_field_slowly(words, row, bits) != 0;
  }
  CHECK(padding_nonzero == 0);
  // ...and no bit is set but the fields' own.
  uint64_t layout_ones = 0;
  for (uint32_t w : words) layout_ones += std::popcount(w);
  CHECK(layout_ones == field_ones);
}

}  // namespace

TEST_CASE("device layout: every width and row count holds the Column's fields") {
  for (uint32_t bits = 0; bits <= 64; ++bits) {
    for (uint64_t rows : {0, 1, 31, 32, 1000, 1024, 1025, 5000}) check_layout(bits, rows, true);
  }
}

TEST_CASE("device layout: columns long enough to be transposed on several threads") {
  // 200003 rows are 196 blocks: more than one thread's share (64 blocks) wherever the
  // machine has two hardware threads, and a last block cut short.
  for (uint32_t bits : {1u, 13u, 24u, 32u, 47u, 64u}) check_layout(bits, 200003, bits == 47);
}

}  // namespace tally
