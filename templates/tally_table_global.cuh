// tally device library: the global open-addressing hash table (karnagel-2015 §2).
// Layout (owned by the host, passed to kernels as a GlobalTableRef by value):
//   keys[0 .. capacity-1]  encoded 64-bit group keys, kEmptyKey64 = free slot
//   keys[capacity]         the side slot's marker (see below)
//   the aggregate states   separate arrays indexed by slot, capacity + 1 entries each,
//                          initialised by the Init kernel before any Scan runs
// The EMPTY marker: the key value 0xFFFF...FF marks a free slot. A real key with that value
// is legal (a BIGINT key of -1 encodes to it) and never enters the probed part: it owns
// the side slot, index `capacity`, outside the probe range (karnagel-2015 §2.1). The side
// slot is occupied once keys[capacity] != EMPTY; its key is kEmptyKey64 by definition. So
// for every slot i in [0, capacity], "occupied" is keys[i] != kEmptyKey64 and the key is
// i < capacity ? keys[i] : kEmptyKey64 — the Finalizer needs no special case but key_at.
// Concurrency: a slot's key only ever changes from EMPTY to one key, and the states are
// initialised before the Scan, so a thread that finds its key (by CAS or by a plain load)
// merges into the states at once; a stale plain load can only show EMPTY, which the CAS
// then corrects. Overflow: probing stops after `max_probes` slots (capacity = a whole
// cycle); the thread then sets kStatusTableFull in *status and gives up, other threads
// poll *status and stop early, and the host grows the table and reruns the query: a full
// table costs a rerun, never a wrong answer.
#pragma once

#include "tally_hash.cuh"
#include "tally_types.cuh"

namespace tally {

// Raises a status bit that the host reads after the kernel (device-wide, idempotent).
TALLY_DEV void raise_status(u32* status, u32 bit) {
  if ((*(volatile u32*)status & bit) == 0) atomicOr(status, bit);
}
TALLY_DEV bool status_raised(const u32* status) { return *(const volatile u32*)status != 0; }

struct GlobalTableRef {
  u64* keys;         // capacity + 1 words
  u64 capacity;      // probed slots; any value >= 1 (no power of two needed)
  u64 max_probes;    // <= capacity
  u32* status;       // device-wide status word (kStatus* bits)
  u64* group_count;  // optional (nullptr): incremented once per newly inserted key

  static constexpr i64 kNoSlot = -1;
  static constexpr u32 kPollInterval = 32;  // probes between polls of *status

  TALLY_DEV u64 side_slot() const { return capacity; }
  TALLY_DEV u64 home_slot(u64 key) const { return reduce_range(fmix64(key), capacity); }

  // The slot of `key`, inserting it if absent; kNoSlot when the table is full (or another
  // thread already reported it full). Callers merge their values into the slot's states.
  TALLY_DEV i64 insert_or_find(u64 key) const {
    if (key == kEmptyKey64) return claim_side_slot();
    u64 slot = home_slot(key);
    for (u64 probe = 0; probe < max_probes; ++probe) {
      u64 seen = keys[slot];
      if (seen == kEmptyKey64) {
        seen = atomicCAS(&keys[slot], kEmptyKey64, key);
        if (seen == kEmptyKey64) {
          if (group_count != nullptr) atomicAdd(group_count, 1ull);
          return (i64)slot;
        }
      }
      if (seen == key) return (i64)slot;
      if ((u32)probe % kPollInterval == kPollInterval - 1 && status_raised(status)) {
        return kNoSlot;
      }
      slot = (slot + 1 == capacity) ? 0 : slot + 1;
    }
    raise_status(status, kStatusTableFull);
    return kNoSlot;
  }

  // The slot holding `key`, or kNoSlot when it is absent (read-only probing).
  TALLY_DEV i64 find(u64 key) const {
    if (key == kEmptyKey64) return occupied(side_slot()) ? (i64)side_slot() : kNoSlot;
    u64 slot = home_slot(key);
    for (u64 probe = 0; probe < max_probes; ++probe) {
      const u64 seen = keys[slot];
      if (seen == key) return (i64)slot;
      if (seen == kEmptyKey64) return kNoSlot;
      slot = (slot + 1 == capacity) ? 0 : slot + 1;
    }
    return kNoSlot;
  }

  // For the Finalizer: slots 0 .. capacity inclusive.
  TALLY_DEV bool occupied(u64 slot) const { return keys[slot] != kEmptyKey64; }
  TALLY_DEV u64 key_at(u64 slot) const { return slot == capacity ? kEmptyKey64 : keys[slot]; }

 private:
  TALLY_DEV i64 claim_side_slot() const {
    u64* marker = &keys[capacity];
    if (*(volatile u64*)marker == kEmptyKey64) {
      // The CAS elects one claimant, so the new group is counted once.
      if (atomicCAS(marker, kEmptyKey64, 0ull) == kEmptyKey64 && group_count != nullptr) {
        atomicAdd(group_count, 1ull);
      }
    }
    return (i64)capacity;
  }
};

// Init kernel body: every key word (side marker included) set to EMPTY, grid-stride.
TALLY_DEV void global_table_clear(const GlobalTableRef& table) {
  for (u64 i = global_thread_index(); i <= table.capacity; i += grid_stride()) {
    table.keys[i] = kEmptyKey64;
  }
}

}  // namespace tally
