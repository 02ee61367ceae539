// APPROX_COUNT_DISTINCT's HyperLogLog sketch: the hash, the register update and the
// estimate, shared verbatim by the CPU engine and device code, so that two engines fed the
// same values hold the same registers and give the same estimate.
// 2^10 one-byte registers: a standard error of 1.04 / sqrt(1024) = 3.25% (Flajolet et al.);
// below 2.5 * 1024 values linear counting answers, far closer than that.
#pragma once

#include "tally_host_device.cuh"
#include "tally_mix.cuh"

#if !defined(__CUDACC_RTC__) && !defined(__CUDACC__)
#include <cmath>
#include <cstring>
#endif

namespace tally_hll {

constexpr int kPrecision = 10;
constexpr int kRegisters = 1 << kPrecision;
// The greatest rank: the hash bits left after the register index, plus one.
constexpr int kMaxRank = 64 - kPrecision + 1;

// The hash of a value's 128-bit form (integers and dates widened, a DECIMAL's unscaled
// value, a double's bits with -0.0 and NaN folded, a string's bytes hashed first).
TALLY_HD unsigned long long hash_words(unsigned long long low, unsigned long long high) {
  return tally::fmix128(low, high);
}
TALLY_HD unsigned long long hash_integer(long long v) {
  return hash_words(static_cast<unsigned long long>(v), v < 0 ? ~0ull : 0ull);
}
TALLY_HD unsigned long long hash_wide(__int128 v) {
  const auto bits = static_cast<unsigned __int128>(v);
  return hash_words(static_cast<unsigned long long>(bits),
                    static_cast<unsigned long long>(bits >> 64));
}
TALLY_HD unsigned long long hash_double(double v) {
  unsigned long long bits = 0x7FF8000000000000ull;  // every NaN as one
  if (v == v) {
    const double folded = v == 0.0 ? 0.0 : v;  // -0.0 as 0.0
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
    bits = static_cast<unsigned long long>(__double_as_longlong(folded));
#else
    std::memcpy(&bits, &folded, sizeof bits);
#endif
  }
  return hash_words(bits, 0);
}

// The register a hash updates (its top bits) and the rank it offers: one more than the
// number of leading zeros of the rest, at most kMaxRank.
TALLY_HD int register_of(unsigned long long h) { return static_cast<int>(h >> (64 - kPrecision)); }
TALLY_HD int rank_of(unsigned long long h) {
  const unsigned long long rest = (h << kPrecision) | (1ull << (kPrecision - 1));
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  return __clzll(static_cast<long long>(rest)) + 1;
#else
  return __builtin_clzll(rest) + 1;
#endif
}

// The estimate of the distinct values behind the registers, rounded to an integer. The
// harmonic sum is exact (an integer of 2^(kMaxRank - rank) terms), so no summation order
// changes it; linear counting's logarithm differs by at most an ulp between libraries,
// and a unit test checks no count of empty registers lands within 1e-6 of a rounding tie.
TALLY_HD long long estimate(const unsigned char* registers) {
  unsigned long long low = 0, high = 0;  // the 128-bit sum, in two words
  int empty = 0;
  for (int j = 0; j < kRegisters; ++j) {
    const unsigned long long term = 1ull << (kMaxRank - registers[j]);
    low += term;
    high += low < term ? 1 : 0;
    empty += registers[j] == 0 ? 1 : 0;
  }
  const double m = kRegisters;
  const double alpha = 0.7213 / (1.0 + 1.079 / m);
  const double sum =
      (static_cast<double>(high) * 18446744073709551616.0 + static_cast<double>(low)) /
      static_cast<double>(1ull << kMaxRank);
  double e = alpha * m * m / sum;
  if (e <= 2.5 * m && empty > 0) e = m * log(m / empty);
  return static_cast<long long>(e + 0.5);
}

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
// A group's registers on the device, 1 KiB: register j is byte j % 4 of word j / 4 (the
// CPU's byte order), so a register grows by a 32-bit compare-and-swap.
struct Sketch {
  unsigned int words[kRegisters / 4];
};

// Most rows change no register once a group has seen a few thousand values: those cost one
// load and no atomic.
__device__ __forceinline__ void add(Sketch* sketch, unsigned long long h) {
  const int j = register_of(h);
  const unsigned int rank = static_cast<unsigned int>(rank_of(h));
  unsigned int* word = &sketch->words[j / 4];
  const int shift = (j % 4) * 8;
  unsigned int seen = *(volatile unsigned int*)word;
  while (((seen >> shift) & 0xFFu) < rank) {
    const unsigned int prev = atomicCAS(word, seen, (seen & ~(0xFFu << shift)) | (rank << shift));
    if (prev == seen) return;
    seen = prev;
  }
}

__device__ __forceinline__ long long estimate(const Sketch& sketch) {
  return estimate(reinterpret_cast<const unsigned char*>(sketch.words));
}
#endif

}  // namespace tally_hll
