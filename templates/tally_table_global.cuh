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
// then corrects. Overflow: probing stops after `max_probes` slots (global_probe_limit); the
// thread then sets kStatusTableFull in *status and gives up, other threads poll *status and
// stop early, and the host grows the table and reruns the query: a full table costs a rerun,
// never a wrong answer.
#pragma once

#include "tally_hash.cuh"
#include "tally_types.cuh"

namespace tally {

// Raises a status bit that the host reads after the kernel (device-wide, idempotent).
TALLY_DEV void raise_status(u32* status, u32 bit) {
  if ((*(volatile u32*)status & bit) == 0) atomicOr(status, bit);
}
TALLY_DEV bool status_raised(const u32* status) { return *(const volatile u32*)status != 0; }

// Linear probing's next slot, wrapping at `capacity`.
TALLY_DEV u64 next_probe_slot(u64 slot, u64 capacity) {
  return slot + 1 == capacity ? 0 : slot + 1;
}

// Every 32 probes, whether another thread already reported the table full (the host will
// rerun anyway, so probing on is wasted).
TALLY_DEV bool probing_abandoned(u64 probe, const u32* status) {
  constexpr u32 kPollInterval = 32;
  return (u32)probe % kPollInterval == kPollInterval - 1 && status_raised(status);
}

// Linear probing at the planned half load averages a few probes; a run of this many means
// the table is nearly full: it is reported full then (and grown), rather than let the last
// keys walk most of a table of millions of slots.
constexpr u64 kMaxGlobalProbes = 4096;
TALLY_DEV u64 global_probe_limit(u64 capacity) {
  return capacity < kMaxGlobalProbes ? capacity : kMaxGlobalProbes;
}

struct GlobalTableRef {
  u64* keys;         // capacity + 1 words
  u64 capacity;      // probed slots; any value >= 1 (no power of two needed)
  u64 max_probes;    // <= capacity
  u32* status;       // device-wide status word (kStatus* bits)
  u64* group_count;  // optional (nullptr): incremented once per newly inserted key

  static constexpr i64 kNoSlot = -1;

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
      if (probing_abandoned(probe, status)) return kNoSlot;
      slot = next_probe_slot(slot, capacity);
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
      slot = next_probe_slot(slot, capacity);
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

// ---- 128-bit keys ------------------------------------------------------------------------
// The same table for keys one word cannot hold (compiler/plan/gpu_plan.h HashKeyLayout): each
// slot is a 16-byte aligned (lo, hi) pair, claimed by sm_90's 128-bit CAS
// (atom.global.cas.b128). The EMPTY marker has hi = 0x8000000000000000: as an i128 that is
// below -2^127 + 2^64, which no DECIMAL(<=38) value reaches (|v| < 10^38 < 2^127 - 2^64),
// and the mixed layout's hi holds digits below 2^63. So no real key equals EMPTY and no side
// slot is needed; slot `capacity` stays EMPTY, so the state arrays keep the 64-bit table's
// layout (probed slots, the unused side slot, the NULL slot) and the Finalizer's
// `s <= capacity` test still holds.
// Torn reads: a plain 16-byte load is not single-copy atomic, so it may pair one half of
// EMPTY with one half of the key being written. A half that differs from EMPTY's half is
// final (a slot changes once, from EMPTY to its key), so a plain load is trusted only when
// both halves differ from EMPTY's; otherwise the CAS, which is atomic, tells the truth.
// EMPTY's lo is therefore an odd constant rather than 0: keys whose lo equals it (and so
// take the CAS on every row) are rare, where lo = 0 is the common value 0 and every NULL.
constexpr u64 kEmptyKey128Lo = 0x9e3779b97f4a7c15ull;
constexpr u64 kEmptyKey128Hi = 0x8000000000000000ull;

struct Key128 {
  u64 lo;
  u64 hi;
};
TALLY_DEV bool key128_equal(Key128 a, Key128 b) { return a.lo == b.lo && a.hi == b.hi; }
TALLY_DEV bool key128_empty(Key128 k) { return k.lo == kEmptyKey128Lo && k.hi == kEmptyKey128Hi; }

struct GlobalTable128Ref {
  u128* keys;        // capacity + 1 entries, 16-byte aligned
  u64 capacity;      // probed slots; any value >= 1
  u64 max_probes;    // <= capacity
  u32* status;       // device-wide status word (kStatus* bits)
  u64* group_count;  // optional (nullptr): incremented once per newly inserted key

  static constexpr i64 kNoSlot = -1;

  TALLY_DEV static u128 pack(Key128 k) { return ((u128)k.hi << 64) | (u128)k.lo; }
  TALLY_DEV static Key128 unpack(u128 v) { return {(u64)v, (u64)(v >> 64)}; }
  TALLY_DEV static u128 empty() { return pack({kEmptyKey128Lo, kEmptyKey128Hi}); }

  TALLY_DEV u64 home_slot(Key128 key) const {
    return reduce_range(fmix128(key.lo, key.hi), capacity);
  }
  TALLY_DEV Key128 plain_load(u64 slot) const {
    const volatile u64* words = (const volatile u64*)&keys[slot];
    return {words[0], words[1]};
  }

  TALLY_DEV i64 insert_or_find(Key128 key) const {
    u64 slot = home_slot(key);
    for (u64 probe = 0; probe < max_probes; ++probe) {
      Key128 seen = plain_load(slot);
      if (seen.lo == kEmptyKey128Lo || seen.hi == kEmptyKey128Hi) {
        // Free, or a read that may be torn: the CAS claims the slot or shows its key.
        seen = unpack(atomicCAS(&keys[slot], empty(), pack(key)));
        if (key128_empty(seen)) {
          if (group_count != nullptr) atomicAdd(group_count, 1ull);
          return (i64)slot;
        }
      }
      if (key128_equal(seen, key)) return (i64)slot;
      if (probing_abandoned(probe, status)) return kNoSlot;
      slot = next_probe_slot(slot, capacity);
    }
    raise_status(status, kStatusTableFull);
    return kNoSlot;
  }

  // Read-only probing, for kernels that run after the inserting one (no torn reads then).
  TALLY_DEV i64 find(Key128 key) const {
    u64 slot = home_slot(key);
    for (u64 probe = 0; probe < max_probes; ++probe) {
      const Key128 seen = plain_load(slot);
      if (key128_equal(seen, key)) return (i64)slot;
      if (key128_empty(seen)) return kNoSlot;
      slot = next_probe_slot(slot, capacity);
    }
    return kNoSlot;
  }

  // For the Finalizer: slots 0 .. capacity inclusive (slot `capacity` is never claimed).
  TALLY_DEV bool occupied(u64 slot) const { return !key128_empty(plain_load(slot)); }
  TALLY_DEV Key128 key_at(u64 slot) const { return plain_load(slot); }
};

TALLY_DEV void global_table_clear(const GlobalTable128Ref& table) {
  for (u64 i = global_thread_index(); i <= table.capacity; i += grid_stride()) {
    table.keys[i] = GlobalTable128Ref::empty();
  }
}

}  // namespace tally
