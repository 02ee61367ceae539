// Counter-based random numbers for the data generators: every value is a pure function of
// (seed, row or item index, field), so a table is the same whatever the thread count or
// the order in which chunks are generated.
#pragma once

#include <cstdint>

namespace tally {

// The splitmix64 finaliser: a bijective 64-bit mix with good avalanche.
inline uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// 64 random bits for one (seed, index, field) triple.
inline uint64_t random_bits(uint64_t seed, uint64_t index, uint64_t field) {
  return splitmix64(splitmix64(seed * 0xd1b54a32d192ed03ULL + index) ^
                    (field * 0xa0761d6478bd642fULL));
}

// Uniform in [0, n) from 64 random bits (multiply-shift; the bias is below 2^-40 for the
// ranges used here).
inline uint64_t uniform_below(uint64_t bits, uint64_t n) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(bits) * n) >> 64);
}

// Uniform in [lo, hi], both inclusive.
inline int64_t uniform_between(uint64_t bits, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(uniform_below(bits, static_cast<uint64_t>(hi - lo) + 1));
}

// Uniform in [0, 1) with 53 random bits.
inline double uniform_unit(uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1p-53; }

}  // namespace tally
