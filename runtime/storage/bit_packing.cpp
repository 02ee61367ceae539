#include "runtime/storage/bit_packing.h"

#include <bit>

namespace tally {

int bits_needed(uint64_t max_value) { return 64 - std::countl_zero(max_value); }

namespace {

template <bool kHasNulls>
void pack_into(std::vector<uint64_t>& words, const std::vector<int64_t>& values, int64_t base,
               int bits, const std::vector<uint64_t>& validity) {
  uint64_t* out = words.data();
  size_t bit = 0;
  for (size_t i = 0; i < values.size(); ++i, bit += static_cast<size_t>(bits)) {
    uint64_t v = static_cast<uint64_t>(values[i]) - static_cast<uint64_t>(base);
    if constexpr (kHasNulls) {
      if (!((validity[i >> 6] >> (i & 63)) & 1)) continue;
    }
    size_t word = bit >> 6;
    unsigned shift = bit & 63;
    out[word] |= v << shift;
    if (shift + static_cast<unsigned>(bits) > 64) out[word + 1] |= v >> (64 - shift);
  }
}

}  // namespace

std::vector<uint64_t> pack_bits(const std::vector<int64_t>& values, int64_t base, int bits,
                                const std::vector<uint64_t>& validity) {
  size_t total_bits = values.size() * static_cast<size_t>(bits);
  std::vector<uint64_t> words((total_bits + 63) / 64 + 1, 0);  // +1: the padding word
  if (bits == 0) return words;
  if (validity.empty()) {
    pack_into<false>(words, values, base, bits, validity);
  } else {
    pack_into<true>(words, values, base, bits, validity);
  }
  return words;
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
