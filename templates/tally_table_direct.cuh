// tally device library: direct-indexed (perfect hash) group slots, for key domains the
// planner knows to be small: dictionary codes, short [min, max] ranges, or several such
// columns combined (tome-2018 §3.3). A key's slot is its offset from the domain minimum;
// several key columns combine by mixed radix: slot = d0 + r0 * (d1 + r1 * (d2 + ...)),
// each digit d_i in [0, r_i). No probing, no key array: slot i's key is decoded from i.
// A digit outside its radix (statistics that were wrong, or a value appended since) sets
// kStatusKeyOutOfRange; the row is dropped and the host replans with a hash table, so a
// stale domain costs a rerun, never a wrong answer. A nullable column has one more digit
// value than its domain, the last, for NULL (add_nullable_key).
#pragma once

#include "tally_table_global.cuh"
#include "tally_types.cuh"

namespace tally {

// Builds a slot digit by digit (first key column = least significant digit).
struct MixedRadix {
  u64 slot = 0;
  u64 stride = 1;
  bool in_range = true;

  TALLY_DEV void add_digit(u64 digit, u64 radix) {
    in_range &= digit < radix;
    slot += digit * stride;
    stride *= radix;
  }
  // Offset of `key` from `min` computed in u64, so keys below min wrap to huge digits and
  // fail the radix check instead of overflowing i64.
  TALLY_DEV void add_key(i64 key, i64 min, u64 radix) { add_digit((u64)key - (u64)min, radix); }
  // A key the statistics of its own column bound (KeyEncoding::exact): no range check.
  TALLY_DEV void add_exact_key(i64 key, i64 min, u64 radix) {
    slot += ((u64)key - (u64)min) * stride;
    stride *= radix;
  }
  TALLY_DEV void add_exact_nullable_key(bool valid, i64 key, i64 min, u64 values) {
    slot += (valid ? (u64)key - (u64)min : values) * stride;
    stride *= values + 1;
  }
  // A nullable column whose non-NULL keys span `values` digits: NULL is digit `values`, and
  // the column's radix is values + 1, so no key can be taken for NULL or the reverse.
  TALLY_DEV void add_nullable_key(bool valid, i64 key, i64 min, u64 values) {
    const u64 digit = valid ? (u64)key - (u64)min : values;
    in_range &= !valid || digit < values;
    slot += digit * stride;
    stride *= values + 1;
  }
};

// The Finalizer's inverse: digit i of `slot`, where stride_i = r_0 * ... * r_{i-1}.
TALLY_DEV u64 mixed_radix_digit(u64 slot, u64 stride, u64 radix) { return (slot / stride) % radix; }

// A slot spread over the table (compiler/plan/slot_spread.h): times a multiplier prime to the
// slot count, a permutation of the slots; the Finalizer undoes it with the inverse multiplier.
// slot and multiplier are below 2^32, so the product does not wrap.
TALLY_DEV u64 spread_slot(u64 slot, u64 multiplier, u64 slots) { return slot * multiplier % slots; }

struct DirectTableRef {
  u64 num_slots;  // product of the radices
  u32* status;

  static constexpr i64 kNoSlot = -1;

  // Slot of a one-column key in [min, min + num_slots).
  TALLY_DEV i64 slot(i64 key, i64 min) const {
    const u64 offset = (u64)key - (u64)min;
    if (offset >= num_slots) return out_of_range();
    return (i64)offset;
  }
  TALLY_DEV i64 slot(const MixedRadix& key) const {
    if (!key.in_range || key.slot >= num_slots) return out_of_range();
    return (i64)key.slot;
  }

 private:
  TALLY_DEV i64 out_of_range() const {
    raise_status(status, kStatusKeyOutOfRange);
    return kNoSlot;
  }
};

}  // namespace tally
