// tally device library: warp-level reductions, for aggregates held in registers
// (thread-private accumulators, tome-2018's in-register placement) that are combined once
// per warp and merged into shared or global memory by one lane, not by every thread.
// Every lane of the warp must call these together (full mask): lanes with no data pass
// the identity (0 for sums, the type's max for min, its min for max). Lane 0 gets the result.
#pragma once

#include "tally_types.cuh"

namespace tally {

constexpr u32 kFullWarp = 0xFFFFFFFFu;

template <typename T>
TALLY_DEV T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(kFullWarp, v, offset);
  return v;
}

// 128-bit values travel as two 64-bit halves; the arithmetic itself is done in 128 bits,
// so carries between the halves are exact.
TALLY_DEV i128 warp_shfl_down(i128 v, int offset) {
  return i128_from_words(__shfl_down_sync(kFullWarp, i128_low(v), offset),
                         __shfl_down_sync(kFullWarp, i128_high(v), offset));
}
TALLY_DEV i128 warp_sum(i128 v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += warp_shfl_down(v, offset);
  return v;
}

template <typename T>
TALLY_DEV T warp_min(T v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    const T other = __shfl_down_sync(kFullWarp, v, offset);
    v = sql_less(other, v) ? other : v;
  }
  return v;
}

template <typename T>
TALLY_DEV T warp_max(T v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    const T other = __shfl_down_sync(kFullWarp, v, offset);
    v = sql_greater(other, v) ? other : v;
  }
  return v;
}

TALLY_DEV i128 warp_min(i128 v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    const i128 other = warp_shfl_down(v, offset);
    v = sql_less(other, v) ? other : v;
  }
  return v;
}
TALLY_DEV i128 warp_max(i128 v) {
  for (int offset = 16; offset > 0; offset >>= 1) {
    const i128 other = warp_shfl_down(v, offset);
    v = sql_greater(other, v) ? other : v;
  }
  return v;
}

// The pairwise steps of warp_min / warp_max, for folding several threads' cells in a lane
// before the warp reduces them (the same comparison: NaN above every number).
template <typename T>
TALLY_DEV T min_of(T a, T b) {
  return sql_less(b, a) ? b : a;
}
template <typename T>
TALLY_DEV T max_of(T a, T b) {
  return sql_greater(b, a) ? b : a;
}

// BIT_AND / BIT_OR / BIT_XOR and PRODUCT: the same tree with another operator. Lanes with no
// data pass the identity (all ones for and, 0 for or and xor, 1 for the product).
template <typename T>
TALLY_DEV T and_of(T a, T b) {
  return a & b;
}
template <typename T>
TALLY_DEV T or_of(T a, T b) {
  return a | b;
}
template <typename T>
TALLY_DEV T xor_of(T a, T b) {
  return a ^ b;
}
template <typename T>
TALLY_DEV T mul_of(T a, T b) {
  return a * b;
}
template <typename T>
TALLY_DEV T warp_and(T v) {
  for (int offset = 16; offset > 0; offset >>= 1) v &= __shfl_down_sync(kFullWarp, v, offset);
  return v;
}
template <typename T>
TALLY_DEV T warp_or(T v) {
  for (int offset = 16; offset > 0; offset >>= 1) v |= __shfl_down_sync(kFullWarp, v, offset);
  return v;
}
template <typename T>
TALLY_DEV T warp_xor(T v) {
  for (int offset = 16; offset > 0; offset >>= 1) v ^= __shfl_down_sync(kFullWarp, v, offset);
  return v;
}
template <typename T>
TALLY_DEV T warp_mul(T v) {
  for (int offset = 16; offset > 0; offset >>= 1) v *= __shfl_down_sync(kFullWarp, v, offset);
  return v;
}

TALLY_DEV bool is_lane_zero() { return (threadIdx.x & 31u) == 0; }

}  // namespace tally
