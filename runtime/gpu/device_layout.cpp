#include "runtime/gpu/device_layout.h"

#include <algorithm>
#include <array>
#include <type_traits>
#include <utility>

#include "compiler/common/run_parallel.h"

namespace tally {
namespace {

uint64_t field_mask(uint32_t bits) { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// Field i of a block: the block starts on a 64-bit word (1024 * BITS bits), so the field
// sits at bit i * BITS of it (and may end in the next word). Inlined by force: at -O2 GCC
// called it for every field of the unrolled loops (62% of a transposition's time).
template <uint32_t BITS>
[[gnu::always_inline]] inline uint64_t field_at(const uint64_t* words, uint64_t i) {
  const uint64_t bit = i * BITS;
  const unsigned shift = bit & 63;
  uint64_t v = words[bit >> 6] >> shift;
  if (shift + BITS > 64) v |= words[(bit >> 6) + 1] << ((64 - shift) & 63);
  return v & field_mask(BITS);
}

// A block's fields in row order. `whole`: a full block whose every field may read the word
// after its own, so the loop unrolls into constant shifts.
template <uint32_t BITS, typename Field>
void read_fields(const uint64_t* words, uint64_t count, bool whole, Field* fields) {
  if (whole) {
#pragma GCC unroll 64
    for (uint64_t i = 0; i < kLaneBlockRows; ++i)
      fields[i] = static_cast<Field>(field_at<BITS>(words, i));
    return;
  }
  for (uint64_t i = 0; i < count; ++i) fields[i] = static_cast<Field>(field_at<BITS>(words, i));
  std::fill(fields + count, fields + kLaneBlockRows, 0);
}

// Lane `lane`'s 32 fields packed into its stream through an accumulator, so every output
// word is written once (no zeroing first, no read-modify-write of scattered words). Up to
// 32 bits a field, 31 pending bits plus a field fit 64 bits; wider ones take 128.
template <uint32_t BITS, typename Field>
void pack_lane(const Field* fields, uint32_t lane, uint32_t* stream) {
  using Pending = std::conditional_t<(BITS <= 32), uint64_t, unsigned __int128>;
  Pending pending = 0;
  uint32_t pending_bits = 0;
#pragma GCC unroll 32
  for (uint32_t j = 0; j < 32; ++j) {
    pending |= static_cast<Pending>(fields[j * 32 + lane]) << pending_bits;
    pending_bits += BITS;
    while (pending_bits >= 32) {
      *stream = static_cast<uint32_t>(pending);
      stream += 32;
      pending >>= 32;
      pending_bits -= 32;
    }
  }
}

// One block: its 1024 fields are read in row order, then each lane's 32 fields are packed
// into its stream. BITS is a constant so that the loops unroll into shifts the compiler knows.
template <uint32_t BITS>
void transpose_block(std::span<const uint64_t> packed, uint64_t rows, uint64_t block,
                     uint32_t* out) {
  using Field = std::conditional_t<(BITS <= 32), uint32_t, uint64_t>;
  Field fields[kLaneBlockRows];
  const uint64_t first = block * kLaneBlockRows;
  const uint64_t count = std::min<uint64_t>(kLaneBlockRows, rows - first);
  const uint64_t first_word = first * BITS / 64;
  // Whole: every field's word and the one after it lie inside `packed`.
  const bool whole = count == kLaneBlockRows && first_word + 16 * BITS < packed.size();
  read_fields<BITS>(packed.data() + first_word, count, whole, fields);
  for (uint32_t lane = 0; lane < 32; ++lane) pack_lane<BITS>(fields, lane, out + lane);
}

using TransposeBlock = void (*)(std::span<const uint64_t>, uint64_t, uint64_t, uint32_t*);

template <size_t... B>
constexpr std::array<TransposeBlock, sizeof...(B)> transposers(std::index_sequence<B...>) {
  return {&transpose_block<static_cast<uint32_t>(B)>...};
}

// transpose_block<bits> for bits 0..64 (0 is never called: a 0-bit column has no words).
constexpr auto kTransposers = transposers(std::make_index_sequence<65>());

}  // namespace

uint64_t lane_transposed_word_count(uint64_t rows, uint32_t bits) {
  return (rows + kLaneBlockRows - 1) / kLaneBlockRows * 32 * bits;
}

void lane_transpose_blocks(std::span<const uint64_t> packed, uint64_t rows, uint32_t bits,
                           uint64_t first_block, uint64_t end_block, uint32_t* out) {
  if (bits == 0) return;
  const TransposeBlock transpose = kTransposers.at(bits);
  for (uint64_t b = first_block; b < end_block; ++b) {
    transpose(packed, rows, b, out + (b - first_block) * 32 * bits);
  }
}

std::vector<uint32_t> lane_transposed_words(std::span<const uint64_t> packed, uint64_t rows,
                                            uint32_t bits) {
  std::vector<uint32_t> out(lane_transposed_word_count(rows, bits));
  if (bits == 0 || rows == 0) return out;
  const uint64_t blocks = (rows + kLaneBlockRows - 1) / kLaneBlockRows;
  // Blocks own disjoint words: tasks need no coordination. Small columns stay on one.
  const uint64_t tasks =
      std::clamp<uint64_t>(worker_threads(), 1, std::max<uint64_t>(1, blocks / 64));
  const uint64_t per_task = (blocks + tasks - 1) / tasks;
  run_parallel(tasks, [&](size_t t) {
    const uint64_t first = std::min(blocks, t * per_task);
    const uint64_t end = std::min(blocks, first + per_task);
    lane_transpose_blocks(packed, rows, bits, first, end, out.data() + first * 32 * bits);
  });
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
  if (shift + bits > 64) v |= word(at + 64) << ((64 - shift) & 63);
  return v & field_mask(bits);
}

}  // namespace tally
