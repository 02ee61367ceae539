// Bit-level helpers for the column encodings: frame-of-reference packing and validity
// bitmap concatenation. Bits are little-endian within 64-bit words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tally {

// Bits needed to hold every value in [0, max_value]; 0 when max_value is 0.
int bits_needed(uint64_t max_value);

// Words that hold `rows` values of `bits` bits, plus one zero word at the end so that a
// reader may always load word + 1 for a value that straddles two words without a bounds
// check.
size_t packed_word_count(size_t rows, int bits);

// The `bits`-bit field of `row` (bits 0..64) in words packed as pack_bits does. Inline: the
// CPU engine reads every bit-packed value through it.
inline uint64_t unpack_field(std::span<const uint64_t> words, size_t row, int bits) {
  if (bits == 0) return 0;
  const size_t bit = row * static_cast<size_t>(bits);
  const size_t word = bit >> 6;
  const unsigned shift = bit & 63;
  uint64_t v = words[word] >> shift;
  if (shift + static_cast<unsigned>(bits) > 64) v |= words[word + 1] << (64 - shift);
  return bits == 64 ? v : (v & ((uint64_t{1} << bits) - 1));
}

// ORs values[i] - base, `bits` bits each, into `words` from bit `first_bit` on (those bits
// must be zero). Rows whose bit in `validity` is clear (when validity is not empty) pack
// as 0.
void pack_bits(uint64_t* words, size_t first_bit, std::span<const int64_t> values, int64_t base,
               int bits, const std::vector<uint64_t>& validity);

// Appends the first src_bits bits of src after the first dst_bits bits of dst. Bits past
// the end of either bitmap must be zero (they stay zero).
void append_bits(std::vector<uint64_t>& dst, size_t dst_bits, const std::vector<uint64_t>& src,
                 size_t src_bits);

}  // namespace tally
