// The device layout of bit-packed columns. On the host a column's fields follow each other
// row by row (runtime/storage/column.h); on the GPU they are lane-transposed, so that a
// warp's loads are coalesced and each lane decodes its own fields from words it alone
// reads, with shifts the code generator knows (templates/tally_decode.cuh):
//   rows come in blocks of 1024; row b * 1024 + 32 j + L (j, L < 32) is field j of lane
//   L's stream, bits [j * bits, (j + 1) * bits) of it; the stream's 32-bit word w is word
//   b * 32 * bits + 32 w + L of the column.
// A block's 32 streams fill exactly 32 * bits words, so every block starts on a word and a
// lane's fields sit at the same offsets in every block. The last block is stored whole,
// its rows past the end zero.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tally {

inline constexpr uint64_t kLaneBlockRows = 1024;

// 32-bit words of `rows` fields of `bits` bits in the device layout (whole blocks).
uint64_t lane_transposed_word_count(uint64_t rows, uint32_t bits);

// The device layout of `rows` fields of `bits` bits (0..64) stored row by row in `packed`
// (little-endian 64-bit words, as Column::packed_words()). Blocks are transposed on all
// hardware threads.
std::vector<uint32_t> lane_transposed_words(std::span<const uint64_t> packed, uint64_t rows,
                                            uint32_t bits);

// Blocks [first_block, end_block) of the device layout into `out` (32 * bits words a block;
// `out` is where first_block starts). Every word is written, none read.
void lane_transpose_blocks(std::span<const uint64_t> packed, uint64_t rows, uint32_t bits,
                           uint64_t first_block, uint64_t end_block, uint32_t* out);

// Field `row` of a device-layout column, as the GPU decodes it (for tests).
uint64_t lane_transposed_field(std::span<const uint32_t> words, uint64_t row, uint32_t bits);

}  // namespace tally
