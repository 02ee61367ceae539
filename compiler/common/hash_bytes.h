// A fast 64-bit hash of a byte string, eight bytes a step: the string interner's slots and the
// kernel cache's payload checksum (against corruption; the SHA-256 key names an entry). Not
// for adversarial input.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace tally {

inline uint64_t mix_bits(uint64_t x) {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ULL;
  return x ^ (x >> 32);
}

// The tail is read as a short little-endian word.
inline uint64_t hash_bytes(std::string_view s) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, s.data() + i, 8);
    h = mix_bits(h ^ word) + 0x632be59bd9b4e019ULL;
  }
  uint64_t tail = 0;
  std::memcpy(&tail, s.data() + i, s.size() - i);
  return mix_bits(h ^ tail);
}

}  // namespace tally
