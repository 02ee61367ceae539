// Murmur3's 64-bit finalizer and its two-word form, which host C++ and device code both
// compile (group hashing in tally_hash.cuh, APPROX_COUNT_DISTINCT's sketch in tally_hll.cuh).
#pragma once

#include "tally_host_device.cuh"

namespace tally {

// fmix64 scrambles every input bit into every output bit.
TALLY_HD unsigned long long fmix64(unsigned long long k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

// Both words of a 128-bit value mixed into one 64-bit hash: the high word through its own
// finalizer first, so values that differ only in `hi` still land far apart.
TALLY_HD unsigned long long fmix128(unsigned long long lo, unsigned long long hi) {
  return fmix64(lo ^ fmix64(hi + 0x9e3779b97f4a7c15ull));
}

}  // namespace tally
