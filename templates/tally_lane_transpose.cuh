// tally device library: the device half of a bit-packed column's upload. The host copies the
// column's fields as it stores them, one row after another (runtime/storage/column.h), and
// this kernel lane-transposes them in place into the device layout that the Scan decodes
// (runtime/gpu/device_layout.h): in a block of 1024 rows, row 32 j + L is field j of lane L's
// stream, and the stream's word w is the block's word 32 w + L. Both layouts give a block
// exactly 32 * bits words, so each block is transposed on its own, through shared memory.
// The host's transposition of the same fields ran at 3 GB/s on 16 cores (bench/RESULTS.md,
// uploads); here it costs a read and a write of the column at the device's bandwidth.
#pragma once

#include "tally_types.cuh"

namespace tally {

constexpr u32 kTransposeBlockRows = 1024;
constexpr u32 kTransposeMaxBits = 64;

// Bits [bit, bit + bits) of a block's fields as stored (bits <= 64). The word after the
// field's first is read whatever the field's end: `stored` holds two words past a block.
TALLY_DEV u64 stored_field(const u32* stored, u32 bit, u32 bits) {
  const u32 w = bit >> 5, shift = bit & 31;
  u64 v = ((static_cast<u64>(stored[w + 1]) << 32) | stored[w]) >> shift;
  if (shift + bits > 64) v |= static_cast<u64>(stored[w + 2]) << (64 - shift);
  return bits == 64 ? v : v & ((u64{1} << bits) - 1);
}

// Word `o` of a block in the device layout: lane o % 32's stream word o / 32, which holds
// bits [32 w, 32 w + 32) of the lane's fields. Rows at or past `valid_rows` are zero (the
// last block's bytes past the column's end were never written).
TALLY_DEV u32 lane_word(const u32* stored, u32 o, u32 bits, u32 valid_rows) {
  const u32 lane = o & 31, first_bit = (o >> 5) * 32;
  u32 word = 0;
  for (u32 j = first_bit / bits; j < 32 && j * bits < first_bit + 32; ++j) {
    const u32 row = j * 32 + lane;
    const u64 v = row < valid_rows ? stored_field(stored, row * bits, bits) : 0;
    const int shift = static_cast<int>(j * bits) - static_cast<int>(first_bit);
    word |= shift >= 0 ? static_cast<u32>(v << shift) : static_cast<u32>(v >> -shift);
  }
  return word;
}

// Transposes the blocks of `rows` fields of `bits` bits (1..64) in `words`, in place; a
// thread block takes one block of rows at a time.
TALLY_DEV void lane_transpose(u32* words, u64 rows, u32 bits) {
  __shared__ u32 stored[32 * kTransposeMaxBits + 2];
  const u32 block_words = 32 * bits;
  const u64 blocks = (rows + kTransposeBlockRows - 1) / kTransposeBlockRows;
  for (u64 b = blockIdx.x; b < blocks; b += gridDim.x) {
    u32* block = words + b * block_words;
    for (u32 i = threadIdx.x; i < block_words; i += blockDim.x) stored[i] = block[i];
    __syncthreads();
    const u64 left = rows - b * kTransposeBlockRows;
    const u32 valid_rows =
        left < kTransposeBlockRows ? static_cast<u32>(left) : kTransposeBlockRows;
    for (u32 o = threadIdx.x; o < block_words; o += blockDim.x) {
      block[o] = lane_word(stored, o, bits, valid_rows);
    }
    __syncthreads();
  }
}

}  // namespace tally
