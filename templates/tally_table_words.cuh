// tally device library: the global hash table for composite keys of W 64-bit words, for
// GROUP BY keys that no single CAS can claim (two or more computed or unbounded keys, a wide
// DECIMAL beside other keys; compiler/plan/gpu_plan.h HashKeyLayout::KeyWords).
// Layout (one allocation, owned by the host):
//   marks[0 .. capacity]            u32 per slot: kMarkEmpty, kMarkClaimed or kMarkReady
//   words[slot * W .. slot * W + W)  the slot's key, 8-byte aligned after the marks
// A slot is claimed by a CAS on its mark (EMPTY -> CLAIMED); the claimant writes the key
// words, fences, and publishes the mark READY. A thread that meets a CLAIMED mark waits for
// READY before it compares words (the claimant is past its CAS, so the wait is a few stores
// long; independent thread scheduling, sm_70+, lets it finish even within one warp). A mark
// only ever goes EMPTY -> CLAIMED -> READY, so every key is written once, as in the 64-bit
// table. Slot `capacity` is never claimed: the state arrays keep the 64-bit table's layout.
// Overflow: as the 64-bit table, kStatusTableFull and a rerun on a larger table.
#pragma once

#include "tally_hash.cuh"
#include "tally_table_global.cuh"
#include "tally_types.cuh"

namespace tally {

constexpr u32 kMarkEmpty = 0;
constexpr u32 kMarkClaimed = 1;
constexpr u32 kMarkReady = 2;

template <u32 W>
struct GlobalTableWordsRef {
  u32* marks;        // capacity + 1 marks
  u64* words;        // (capacity + 1) * W words
  u64 capacity;      // probed slots; any value >= 1
  u64 max_probes;    // <= capacity
  u32* status;       // device-wide status word (kStatus* bits)
  u64* group_count;  // optional (nullptr): incremented once per newly inserted key

  static constexpr i64 kNoSlot = -1;

  // The table over one allocation: the marks, then the words from the next 8-byte boundary.
  TALLY_DEV static GlobalTableWordsRef over(void* base, u64 capacity, u32* status) {
    const u64 mark_bytes = ((capacity + 1) * 4 + 7) / 8 * 8;
    return {(u32*)base, (u64*)((u8*)base + mark_bytes),
            capacity,   global_probe_limit(capacity),
            status,     nullptr};
  }

  TALLY_DEV u64 home_slot(const u64 (&key)[W]) const {
    u64 h = 0x243f6a8885a308d3ull;
    for (u32 w = 0; w < W; ++w) h = hash_combine(h, key[w]);
    return reduce_range(h, capacity);
  }

  TALLY_DEV i64 insert_or_find(const u64 (&key)[W]) const {
    u64 slot = home_slot(key);
    for (u64 probe = 0; probe < max_probes; ++probe) {
      u32 mark = load_mark(slot);
      if (mark == kMarkEmpty) {
        mark = atomicCAS(&marks[slot], kMarkEmpty, kMarkClaimed);
        if (mark == kMarkEmpty) {
          publish(slot, key);
          return (i64)slot;
        }
      }
      if (equal_when_ready(slot, mark, key)) return (i64)slot;
      if (probing_abandoned(probe, status)) return kNoSlot;
      slot = next_probe_slot(slot, capacity);
    }
    raise_status(status, kStatusTableFull);
    return kNoSlot;
  }

  // Read-only probing, for kernels that run after the inserting one (every mark final).
  TALLY_DEV i64 find(const u64 (&key)[W]) const {
    u64 slot = home_slot(key);
    for (u64 probe = 0; probe < max_probes; ++probe) {
      const u32 mark = load_mark(slot);
      if (mark == kMarkEmpty) return kNoSlot;
      if (equal_when_ready(slot, mark, key)) return (i64)slot;
      slot = next_probe_slot(slot, capacity);
    }
    return kNoSlot;
  }

  // For the Finalizer: slots 0 .. capacity inclusive (slot `capacity` is never claimed).
  TALLY_DEV bool occupied(u64 slot) const { return load_mark(slot) != kMarkEmpty; }
  TALLY_DEV const u64* key_at(u64 slot) const { return words + slot * W; }

 private:
  TALLY_DEV u32 load_mark(u64 slot) const { return *(const volatile u32*)&marks[slot]; }

  TALLY_DEV void publish(u64 slot, const u64 (&key)[W]) const {
    volatile u64* out = words + slot * W;
    for (u32 w = 0; w < W; ++w) out[w] = key[w];
    __threadfence();  // the words before the mark, for every thread that reads READY
    atomicExch(&marks[slot], kMarkReady);
    if (group_count != nullptr) atomicAdd(group_count, 1ull);
  }

  // Whether the slot (claimed by another thread) holds `key`, once its words are written.
  TALLY_DEV bool equal_when_ready(u64 slot, u32 mark, const u64 (&key)[W]) const {
    while (mark == kMarkClaimed) {
      __nanosleep(32);
      mark = load_mark(slot);
    }
    __threadfence();  // pairs with publish's fence: the words are read after the mark
    const volatile u64* seen = words + slot * W;
    for (u32 w = 0; w < W; ++w) {
      if (seen[w] != key[w]) return false;
    }
    return true;
  }
};

template <u32 W>
TALLY_DEV void global_table_clear(const GlobalTableWordsRef<W>& table) {
  for (u64 i = global_thread_index(); i <= table.capacity; i += grid_stride()) {
    table.marks[i] = kMarkEmpty;
  }
}

}  // namespace tally
