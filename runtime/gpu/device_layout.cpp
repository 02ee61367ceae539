#include "runtime/gpu/device_layout.h"

#include <algorithm>
#include <thread>

#include "runtime/storage/bit_packing.h"

namespace tally {
namespace {

uint64_t field_mask(uint32_t bits) { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// ORs `field` into lane L's stream at stream bit `bit` (`lane_words` points at the lane's
// word 0 of its block; stream words are 32 apart). A field of up to 64 bits spans up to
// three 32-bit words.
void put_field(uint32_t* lane_words, uint64_t bit, uint64_t field) {
  uint32_t* w = lane_words + (bit >> 5) * 32;
  const unsigned shift = bit & 31;
  w[0] |= static_cast<uint32_t>(field << shift);
  const uint64_t rest = shift == 0 ? field >> 32 : field >> (32 - shift);
  if (rest != 0) w[32] |= static_cast<uint32_t>(rest);
  const uint64_t last = rest >> 32;
  if (last != 0) w[64] |= static_cast<uint32_t>(last);
}

void transpose_blocks(std::span<const uint64_t> packed, uint64_t rows, uint32_t bits,
                      uint64_t first_block, uint64_t end_block, uint32_t* out) {
  for (uint64_t b = first_block; b < end_block; ++b) {
    uint32_t* block = out + b * 32 * bits;
    for (uint32_t j = 0; j < 32; ++j) {
      for (uint32_t lane = 0; lane < 32; ++lane) {
        const uint64_t row = b * kLaneBlockRows + j * 32 + lane;
        if (row >= rows) return;  // rows are in (j, lane) order inside a block
        const uint64_t field = unpack_field(packed, row, static_cast<int>(bits));
        if (field != 0) put_field(block + lane, uint64_t{j} * bits, field);
      }
    }
  }
}

}  // namespace

uint64_t lane_transposed_word_count(uint64_t rows, uint32_t bits) {
  return (rows + kLaneBlockRows - 1) / kLaneBlockRows * 32 * bits;
}

std::vector<uint32_t> lane_transposed_words(std::span<const uint64_t> packed, uint64_t rows,
                                            uint32_t bits) {
  std::vector<uint32_t> out(lane_transposed_word_count(rows, bits), 0);
  if (bits == 0 || rows == 0) return out;
  const uint64_t blocks = (rows + kLaneBlockRows - 1) / kLaneBlockRows;
  // Blocks own disjoint words: threads need no coordination. Small columns stay on this one.
  const uint64_t threads = std::clamp<uint64_t>(std::thread::hardware_concurrency(), 1,
                                                std::max<uint64_t>(1, blocks / 64));
  const uint64_t per_thread = (blocks + threads - 1) / threads;
  std::vector<std::thread> workers;
  for (uint64_t t = 1; t < threads; ++t) {
    workers.emplace_back(transpose_blocks, packed, rows, bits, t * per_thread,
                         std::min(blocks, (t + 1) * per_thread), out.data());
  }
  transpose_blocks(packed, rows, bits, 0, std::min(blocks, per_thread), out.data());
  for (auto& w : workers) w.join();
  return out;
}

uint64_t lane_transposed_field(std::span<const uint32_t> words, uint64_t row, uint32_t bits) {
  if (bits == 0) return 0;
  const uint64_t block = row / kLaneBlockRows;
  const uint64_t bit = ((row >> 5) & 31) * bits;
  const uint64_t at = block * 32 * bits + (bit >> 5) * 32 + (row & 31);
  const unsigned shift = bit & 31;
  auto word = [&](uint64_t i) -> uint64_t { return i < words.size() ? words[i] : 0; };
  uint64_t v = (word(at) | word(at + 32) << 32) >> shift;
  if (shift + bits > 64) v |= word(at + 64) << (64 - shift);
  return v & field_mask(bits);
}

}  // namespace tally
