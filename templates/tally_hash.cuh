// tally device library: hash functions for grouping keys.
// Murmur3's 64-bit finalizer (fmix64) scrambles every input bit into every output bit, so
// tables can take the high bits (or a multiply-shift range reduction) of the hash without
// the truncation effects karnagel-2015 §3 measured for weak hashes on dense integer keys.
#pragma once

#include "tally_mix.cuh"  // fmix64, fmix128 (a 128-bit key: the other GROUP BY keys in hi)
#include "tally_types.cuh"

namespace tally {

TALLY_DEV u32 fmix32(u32 h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

// Folds one more key part into a running hash, for keys of several columns that are
// hashed rather than packed into one word. Order matters: (a, b) and (b, a) differ.
TALLY_DEV u64 hash_combine(u64 seed, u64 part) {
  return fmix64(seed ^ (fmix64(part) + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2)));
}

// Maps a hash onto [0, n) without a division: the high 64 bits of hash * n (Lemire's
// multiply-shift), so a table needs no power-of-two capacity.
TALLY_DEV u64 reduce_range(u64 hash, u64 n) { return __umul64hi(hash, n); }

}  // namespace tally
