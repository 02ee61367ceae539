// tally device library: atomic merges of aggregate states.
// One overloaded name per operation (atomic_add, atomic_min, atomic_max) so generated code
// need not know which types have hardware atomics (karnagel-2015 Table 1): integers and
// float/double adds use hardware atomics, the rest are compare-and-swap loops. All work on
// global and shared memory alike (generic addresses).
#pragma once

#include "tally_types.cuh"

namespace tally {

// ---- add -------------------------------------------------------------------------------
TALLY_DEV void atomic_add(u32* p, u32 v) { atomicAdd(p, v); }
TALLY_DEV void atomic_add(i32* p, i32 v) { atomicAdd(p, v); }
TALLY_DEV void atomic_add(u64* p, u64 v) { atomicAdd(p, v); }
// Two's complement addition is the same bit operation for signed and unsigned words.
TALLY_DEV void atomic_add(i64* p, i64 v) { atomicAdd((u64*)p, (u64)v); }
TALLY_DEV void atomic_add(f32* p, f32 v) { atomicAdd(p, v); }
TALLY_DEV void atomic_add(f64* p, f64 v) { atomicAdd(p, v); }  // hardware on sm_60+

// Exact 128-bit add from two 64-bit atomics (p 8-byte aligned suffices; word 0 = low half).
// Why the total is exact: the low word sees every low half added in some serial order, so it
// ends at (initial low + sum of low halves) mod 2^64. Each add carries out of the low word
// exactly when its own atomic wrapped the running low total, which it detects from the value
// it replaced (old + add < old); the number of such wraps is exactly the number of times
// 2^64 was crossed, i.e. the carry of the whole sum. Each thread adds its high half plus its
// own carry to the high word, and addition mod 2^64 commutes, so the high word ends at
// (initial high + sum of high halves + total carry) mod 2^64: the exact 128-bit sum mod
// 2^128. Between the two atomics a reader can see a torn value, so the state is only read
// after the kernel (or a grid-wide barrier) has finished all adds.
TALLY_DEV void atomic_add(i128* p, i128 v) {
  u64* words = (u64*)p;
  const u64 low = i128_low(v);
  const u64 old_low = atomicAdd(&words[0], low);
  const u64 carry = (old_low + low < old_low) ? 1ull : 0ull;
  const u64 high = i128_high(v) + carry;
  if (high != 0) atomicAdd(&words[1], high);
}

// A 128-bit sum that the statistics prove never carries out of its low word (every added
// value non-negative, the whole total below 2^64): its high word stays 0, so one 64-bit
// add does, and with its result unused it compiles to a reduction (RED) that no thread
// waits for.
TALLY_DEV void atomic_add_low(i128* p, u64 v) { atomicAdd((u64*)p, v); }

// A row of a global table whose row count and a sum in [0, 2^32) share one word, the count
// above bit 32 (compiler/plan/count_sum_packing.h): one atomic instead of two. When the sum's
// low half carries into the count, the add that did sees it in the word it replaced and
// counts it; packed_count_sum_read gives the two back.
TALLY_DEV void packed_count_sum_add(u64* word, u32* carries, u64 addend) {
  const u64 old = atomicAdd(word, (1ull << 32) + addend);
  if ((old & 0xffffffffull) + addend > 0xffffffffull) atomicAdd(carries, 1u);
}

// The rows and the sum a packed word (and its carries) hold. Reading leaves the word as it
// is, so a Finalizer run twice over the same states gives the same totals.
struct PackedCountSum {
  u64 rows;
  u64 sum;
};

// The low-count layout: the count in the low `count_bits`, which hold more than the table's
// rows so it never carries, and the sum above it modulo 2^(64 - count_bits). One add whose
// result nobody waits for (a RED): the carrying layout's returned word costs a round trip.
// The sum is exact while its count times the largest addend fits; the Finalizer checks.
TALLY_DEV void packed_low_count_add(u64* word, u64 addend, u32 count_bits) {
  atomicAdd(word, (addend << count_bits) + 1ull);
}
TALLY_DEV PackedCountSum packed_low_count_read(u64 packed, u32 count_bits) {
  return {packed & ((1ull << count_bits) - 1), packed >> count_bits};
}
TALLY_DEV PackedCountSum packed_count_sum_read(u64 packed, u32 carried) {
  return {(packed >> 32) - carried, (packed & 0xffffffffull) + ((u64)carried << 32)};
}

// ---- add into a block's shared table ----------------------------------------------------
// Shared memory adds 32-bit words natively, but a 64-bit add there is a compare-and-swap
// loop whose retries pile up on a hot key. A 64-bit cell is added as its two 32-bit words
// instead, the low word's carry found from the value it replaced, as atomic_add(i128*) does.
template <typename T>
TALLY_DEV void shared_atomic_add(T* p, T v) {
  atomic_add(p, v);
}
TALLY_DEV void shared_atomic_add(u64* p, u64 v) {
  u32* words = (u32*)p;
  const u32 low = (u32)v;
  const u32 old_low = atomicAdd(&words[0], low);
  const u32 high = (u32)(v >> 32) + (old_low + low < old_low ? 1u : 0u);
  if (high != 0) atomicAdd(&words[1], high);
}
TALLY_DEV void shared_atomic_add(i64* p, i64 v) { shared_atomic_add((u64*)p, (u64)v); }

// ---- min / max: hardware where it exists -----------------------------------------------
TALLY_DEV void atomic_min(i32* p, i32 v) { atomicMin(p, v); }
TALLY_DEV void atomic_max(i32* p, i32 v) { atomicMax(p, v); }
TALLY_DEV void atomic_min(u32* p, u32 v) { atomicMin(p, v); }
TALLY_DEV void atomic_max(u32* p, u32 v) { atomicMax(p, v); }
TALLY_DEV void atomic_min(i64* p, i64 v) { atomicMin((long long*)p, (long long)v); }
TALLY_DEV void atomic_max(i64* p, i64 v) { atomicMax((long long*)p, (long long)v); }
TALLY_DEV void atomic_min(u64* p, u64 v) { atomicMin(p, v); }
TALLY_DEV void atomic_max(u64* p, u64 v) { atomicMax(p, v); }

// ---- min / max: compare-and-swap loops -------------------------------------------------
// Each loop re-reads the word only after a failed CAS and stops as soon as the stored value
// already beats v, so uncontended updates that change nothing cost a single load.
// Floats compare as SQL orders them (sql_less/sql_greater): NaN above every number.
TALLY_DEV f64 from_bits(u64 w, f64) { return __longlong_as_double((long long)w); }
TALLY_DEV f32 from_bits(u32 w, f32) { return __uint_as_float(w); }
TALLY_DEV u64 to_bits(f64 v) { return (u64)__double_as_longlong(v); }
TALLY_DEV u32 to_bits(f32 v) { return __float_as_uint(v); }

// Stores v into *p while v beats the stored value: kMin ? v < stored : v > stored, in SQL's
// order.
// W is the same-size unsigned word that atomicCAS takes.
template <bool kMin, typename T, typename W>
TALLY_DEV void cas_extremum(T* p, T v) {
  W* word = (W*)p;
  W seen = *(volatile W*)word;
  while (kMin ? sql_less(v, from_bits(seen, v)) : sql_greater(v, from_bits(seen, v))) {
    const W prev = atomicCAS(word, seen, to_bits(v));
    if (prev == seen) return;
    seen = prev;
  }
}
TALLY_DEV void atomic_min(f64* p, f64 v) { cas_extremum<true, f64, u64>(p, v); }
TALLY_DEV void atomic_max(f64* p, f64 v) { cas_extremum<false, f64, u64>(p, v); }
TALLY_DEV void atomic_min(f32* p, f32 v) { cas_extremum<true, f32, u32>(p, v); }
TALLY_DEV void atomic_max(f32* p, f32 v) { cas_extremum<false, f32, u32>(p, v); }

// 128-bit min/max (p 16-byte aligned): sm_90 has a 16-byte compare-and-swap, so both
// halves change together.
// The loop reads with one 16-byte relaxed load (PTX .b128, a single-copy atomic access on
// sm_70+), so it never combines halves of two different values: with two 8-byte loads a
// torn guess could look smaller than v while the true minimum is larger, and the update
// would be skipped. Only real stored values are compared, and min only ever decreases
// (max increases), so stopping once the stored value beats v is exact.
TALLY_DEV i128 i128_load_relaxed(const i128* p) {
  u64 low, high;
  asm volatile("{\n\t.reg .b128 v;\n\tld.relaxed.gpu.b128 v, [%2];\n\tmov.b128 {%0, %1}, v;\n\t}"
               : "=l"(low), "=l"(high)
               : "l"(p)
               : "memory");
  return i128_from_words(low, high);
}
TALLY_DEV bool i128_cas(i128* p, i128& seen, i128 desired) {
  const u128 prev = atomicCAS((u128*)p, (u128)seen, (u128)desired);
  const bool won = prev == (u128)seen;
  seen = (i128)prev;
  return won;
}
TALLY_DEV void atomic_min(i128* p, i128 v) {
  i128 seen = i128_load_relaxed(p);
  while (v < seen && !i128_cas(p, seen, v)) {
  }
}
TALLY_DEV void atomic_max(i128* p, i128 v) {
  i128 seen = i128_load_relaxed(p);
  while (v > seen && !i128_cas(p, seen, v)) {
  }
}

// ---- BIT_AND / BIT_OR / BIT_XOR and PRODUCT --------------------------------------------
TALLY_DEV void atomic_and(i64* p, i64 v) { atomicAnd((unsigned long long*)p, (u64)v); }
TALLY_DEV void atomic_or(i64* p, i64 v) { atomicOr((unsigned long long*)p, (u64)v); }
TALLY_DEV void atomic_xor(i64* p, i64 v) { atomicXor((unsigned long long*)p, (u64)v); }
// No hardware multiply: a compare-and-swap loop, as cas_extremum.
TALLY_DEV void atomic_mul(f64* p, f64 v) {
  u64* word = (u64*)p;
  u64 seen = *(volatile u64*)word;
  for (;;) {
    const u64 prev = atomicCAS(word, seen, to_bits(from_bits(seen, v) * v));
    if (prev == seen) return;
    seen = prev;
  }
}

}  // namespace tally
