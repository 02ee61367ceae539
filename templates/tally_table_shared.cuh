// tally device library: a block-private hash table in shared memory (libcudf's two-level
// grouping, karnagel-2015 §5.1). Each block dedups its rows' keys on chip and merges their
// values into shared-memory states with shared atomics; once per block it flushes every
// occupied slot to the global table (or direct slots): one global merge per distinct key
// per block instead of one per row. A row whose key does not fit (the shared table is
// full, or the key is the EMPTY value) takes the global path directly — it is merged
// straight into the global table — so overflow costs speed, never correctness.
// Use from a kernel:
//   SharedTableRef<u32> t{keys_in_shared, capacity, max_probes};
//   t.clear(); (and the states) __syncthreads();
//   per row: i32 s = t.insert_or_find(k); s >= 0 ? merge into shared states : global path
//   __syncthreads(); t.for_each_occupied([&](u32 slot, u32 key) { merge to global });
#pragma once

#include "tally_hash.cuh"
#include "tally_types.cuh"

namespace tally {

template <typename K>
struct SharedEmpty;
template <>
struct SharedEmpty<u32> {
  static constexpr u32 value = kEmptyKey32;
};
template <>
struct SharedEmpty<u64> {
  static constexpr u64 value = kEmptyKey64;
};

TALLY_DEV u32 shared_hash(u32 key) { return fmix32(key); }
TALLY_DEV u32 shared_hash(u64 key) { return (u32)fmix64(key); }

template <typename K>
struct SharedTableRef {
  K* keys;         // capacity entries in shared memory
  u32 capacity;    // a power of two
  u32 max_probes;  // <= capacity; small bounds keep a nearly full table cheap

  static constexpr K kEmpty = SharedEmpty<K>::value;
  static constexpr i32 kNoSlot = -1;

  // Block-cooperative; the caller synchronises the block before the first insert.
  TALLY_DEV void clear() const {
    for (u32 i = threadIdx.x; i < capacity; i += blockDim.x) keys[i] = kEmpty;
  }

  // The slot of `key`, inserting it if absent; kNoSlot sends the row to the global path.
  TALLY_DEV i32 insert_or_find(K key) const {
    if (key == kEmpty) return kNoSlot;
    const u32 mask = capacity - 1;
    u32 slot = shared_hash(key) & mask;
    for (u32 probe = 0; probe < max_probes; ++probe) {
      K seen = keys[slot];
      if (seen == kEmpty) {
        seen = atomicCAS(&keys[slot], kEmpty, key);
        if (seen == kEmpty) return (i32)slot;
      }
      if (seen == key) return (i32)slot;
      slot = (slot + 1) & mask;
    }
    return kNoSlot;
  }

  // Block-cooperative flush: f(slot, key) for every occupied slot, each by one thread.
  // The caller synchronises the block before (all inserts and merges done).
  template <typename F>
  TALLY_DEV void for_each_occupied(F f) const {
    for (u32 i = threadIdx.x; i < capacity; i += blockDim.x) {
      const K key = keys[i];
      if (key != kEmpty) f(i, key);
    }
  }
};

// Carves typed arrays out of the block's dynamic shared memory, each aligned to 16 bytes
// (enough for i128 states and vector loads).
struct SharedArena {
  char* base;
  u32 used = 0;

  template <typename T>
  TALLY_DEV T* take(u32 count) {
    used = (used + 15u) & ~15u;
    T* p = (T*)(base + used);
    used += count * (u32)sizeof(T);
    return p;
  }
};

// Block-cooperative fill of a shared state array with its initial value.
template <typename T>
TALLY_DEV void shared_fill(T* values, u32 count, T value) {
  for (u32 i = threadIdx.x; i < count; i += blockDim.x) values[i] = value;
}

}  // namespace tally
