#include "runtime/storage/bit_packing.h"

#include <bit>

namespace tally {

int bits_needed(uint64_t max_value) { return 64 - std::countl_zero(max_value); }

size_t packed_word_count(size_t rows, int bits) {
  return (rows * static_cast<size_t>(bits) + 63) / 64 + 1;
}

namespace {

template <bool kHasNulls>
void pack_into(uint64_t* words, size_t first_bit, std::span<const int64_t> values, int64_t base,
               int bits, const std::vector<uint64_t>& validity) {
  size_t bit = first_bit;
  for (size_t i = 0; i < values.size(); ++i, bit += static_cast<size_t>(bits)) {
    if constexpr (kHasNulls) {
      if (!((validity[i >> 6] >> (i & 63)) & 1)) continue;
    }
    uint64_t v = static_cast<uint64_t>(values[i]) - static_cast<uint64_t>(base);
    size_t word = bit >> 6;
    unsigned shift = bit & 63;
    words[word] |= v << shift;
    if (shift + static_cast<unsigned>(bits) > 64) words[word + 1] |= v >> (64 - shift);
  }
}

}  // namespace

void pack_bits(uint64_t* words, size_t first_bit, std::span<const int64_t> values, int64_t base,
               int bits, const std::vector<uint64_t>& validity) {
  if (bits == 0) return;
  if (validity.empty()) {
    pack_into<false>(words, first_bit, values, base, bits, validity);
  } else {
    pack_into<true>(words, first_bit, values, base, bits, validity);
  }
}

void append_bits(std::vector<uint64_t>& dst, size_t dst_bits, const std::vector<uint64_t>& src,
                 size_t src_bits) {
  size_t total = dst_bits + src_bits;
  dst.resize((total + 63) / 64, 0);
  size_t first = dst_bits / 64;
  unsigned shift = dst_bits % 64;
  size_t src_words = (src_bits + 63) / 64;
  for (size_t j = 0; j < src_words; ++j) {
    dst[first + j] |= src[j] << shift;
    if (shift && first + j + 1 < dst.size()) dst[first + j + 1] |= src[j] >> (64 - shift);
  }
}

}  // namespace tally
