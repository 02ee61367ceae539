// Bit-level helpers for the column encodings: frame-of-reference packing and validity
// bitmap concatenation. Bits are little-endian within 64-bit words.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tally {

// Bits needed to hold every value in [0, max_value]; 0 when max_value is 0.
int bits_needed(uint64_t max_value);

// Packs values[i] - base into `bits` bits each; rows whose bit in `validity` is clear
// (when validity is not empty) pack as 0. The result has one extra zero word at the end
// so that a reader may always load word + 1 for a value that straddles two words without
// a bounds check (Column::unpack and the GPU decoder rely on this).
std::vector<uint64_t> pack_bits(const std::vector<int64_t>& values, int64_t base, int bits,
                                const std::vector<uint64_t>& validity);

// Appends the first src_bits bits of src after the first dst_bits bits of dst. Bits past
// the end of either bitmap must be zero (they stay zero).
void append_bits(std::vector<uint64_t>& dst, size_t dst_bits, const std::vector<uint64_t>& src,
                 size_t src_bits);

}  // namespace tally
