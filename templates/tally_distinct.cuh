// tally device library: the set behind COUNT/SUM/AVG(DISTINCT x), and the bitmap that
// replaces it where x has a bounded domain. The set is one open-addressing table of (tag,
// value) pairs for every DISTINCT aggregate of a query, tag = group slot * 64 + aggregate; a
// row's value counts toward its group's DISTINCT state only when this row's
// insert created the pair, so each distinct value is counted once whichever thread saw it.
//
// Entry i is three words: state (0 empty, 1 being written, tag + 2 when ready), value low
// and high. A thread claims an empty entry with a CAS to 1, writes the value, fences and
// publishes the tag; a thread that meets state 1 waits for the tag (Volta+ schedules
// diverged threads independently, so the writer progresses). A probe run longer than
// kDistinctMaxProbes or a full table raises kStatusDistinctFull: the host grows and reruns.
#pragma once

#include "tally_hash.cuh"
#include "tally_table_global.cuh"
#include "tally_types.cuh"

namespace tally {

constexpr u64 kDistinctMaxProbes = 4096;

// The 128-bit image of a DISTINCT argument: equal SQL values give equal images.
TALLY_DEV i128 distinct_image(i64 v) { return (i128)v; }
TALLY_DEV i128 distinct_image(i128 v) { return v; }
TALLY_DEV i128 distinct_image(bool v) { return v ? 1 : 0; }
TALLY_DEV i128 distinct_image(f64 v) {
  if (v == 0.0) v = 0.0;                          // -0.0 and 0.0 are one value
  if (v != v) return (i128)0x7ff8000000000000ll;  // every NaN is one value
  return (i128)__double_as_longlong(v);
}

struct DistinctSetRef {
  u64* words;  // 3 * capacity
  u64 capacity;
  u32* status;

  // True when this call added (tag, value); false when the pair was there, or the table is
  // full (then the status is raised and the run is repeated with a larger table).
  TALLY_DEV bool insert(u64 tag, i128 value) const {
    const u64 lo = (u64)value, hi = (u64)((u128)value >> 64);
    u64 h = reduce_range(hash_combine(hash_combine(fmix64(tag), lo), hi), capacity);
    const u64 ready = tag + 2;
    for (u64 probe = 0; probe < kDistinctMaxProbes && probe < capacity; ++probe) {
      u64* entry = words + 3 * h;
      u64 state = *(volatile u64*)entry;
      if (state == 0) {
        state = atomicCAS((unsigned long long*)entry, 0ull, 1ull);
        if (state == 0) {
          entry[1] = lo;
          entry[2] = hi;
          __threadfence();
          atomicExch((unsigned long long*)entry, (unsigned long long)ready);
          return true;
        }
      }
      while (state == 1) state = *(volatile u64*)entry;
      if (state == ready) {
        __threadfence();
        if (*(volatile u64*)(entry + 1) == lo && *(volatile u64*)(entry + 2) == hi) return false;
      }
      h = h + 1 == capacity ? 0 : h + 1;
    }
    raise_status(status, kStatusDistinctFull);
    return false;
  }
};

// The values a DISTINCT aggregate with a bounded domain has seen, one bit a (slot, value)
// (compiler/plan/distinct_bitmaps.h). Bits are only ever set, so a word read stale from L1
// costs at most a redundant atomic; the atomic's old word decides which row came first.
struct DistinctBitmapRef {
  u32* words;

  // True when this call set the bit: the row is its value's first in its group.
  TALLY_DEV bool insert(u64 bit) const {
    u32* const word = words + (bit >> 5);
    const u32 mask = 1u << (u32)(bit & 31);
    if (*word & mask) return false;
    return (atomicOr(word, mask) & mask) == 0;
  }
};

}  // namespace tally
