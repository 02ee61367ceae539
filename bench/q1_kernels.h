// Device code of the Q1 benchmark's peers, compiled with NVRTC at run time: a read-only
// bandwidth probe (the floor's denominator), and a hand-written TPC-H Q1 kernel over the
// same encoded columns, written the way an expert would without a query compiler:
// per-thread register accumulators for the 6 (returnflag, linestatus) slots (32-bit where
// one thread's rows cannot overflow them at TPC-H's value ranges, else 64-bit), 64-bit
// products, warp reductions, one atomic per warp and slot.
#pragma once

namespace tally::bench {

inline const char* kReadBandwidthKernel = R"(
extern "C" __global__ void read_bandwidth(const uint4* __restrict__ data, unsigned long long n,
                                          unsigned long long* sink) {
  unsigned int acc = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    uint4 v = __ldg(data + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x12345678u) atomicAdd(sink, 1ull);  // keeps the loads alive
}
)";

// Columns: quantity, extendedprice, discount, tax (DECIMAL(15,2) bit-packed), returnflag,
// linestatus (dictionary codes, bit-packed), shipdate (bit-packed days). Their bit widths
// and bases arrive as #defines (QTY_BITS, QTY_BASE, ...) that the bench writes from the
// table, the specialisation a query compiler would do. Each warp walks groups of 64 rows,
// two rows per lane, so a lane's bit offset inside a group is fixed. Output per slot (flag
// * 2 + status): sum_qty, sum_price, sum_disc_price (scale 4), sum_charge (scale 6),
// sum_disc, count; the host finishes the averages.
inline const char* kHandQ1Kernel = R"(
#include "tally_types.cuh"
#include "tally_atomics.cuh"
#include "tally_reduce.cuh"
using namespace tally;

template <u32 BITS>
__device__ __forceinline__ u32 field(const u64* __restrict__ words, u64 group, u32 index) {
  const u32 bit = index * BITS;
  const u64* w = words + group * BITS + (bit >> 6);
  const u32 shift = bit & 63;
  u64 v = __ldg(w) >> shift;
  if (64 % BITS != 0 && shift != 0) v |= __ldg(w + 1) << (64 - shift);
  return (u32)(v & ((1ull << BITS) - 1));
}

extern "C" __global__ void __launch_bounds__(BLOCK) hand_q1(
    const u64* __restrict__ qty, const u64* __restrict__ price, const u64* __restrict__ disc,
    const u64* __restrict__ tax, const u64* __restrict__ flag, const u64* __restrict__ status,
    const u64* __restrict__ ship, u64 rows, u32 cutoff, i128* out /* 6 slots x 5 sums */,
    u64* counts /* 6 */) {
#ifdef SHARED_TABLES
  // Each thread's 6-slot table in shared memory, slot-major (conflict-free), indexed by
  // slot with no branch; registers stay free for more resident warps.
  __shared__ u32 n_t[6 * 128], qty_t[6 * 128], disc_t[6 * 128];
  __shared__ i64 price_t[6 * 128], dp_t[6 * 128], ch_t[6 * 128];
#define CELL(table, s) table[(s) * 128 + threadIdx.x]
#pragma unroll
  for (u32 s = 0; s < 6; ++s) {
    CELL(n_t, s) = 0; CELL(qty_t, s) = 0; CELL(disc_t, s) = 0;
    CELL(price_t, s) = 0; CELL(dp_t, s) = 0; CELL(ch_t, s) = 0;
  }
#else
  u32 n[6] = {0}, s_qty[6] = {0}, s_disc[6] = {0};
  i64 s_price[6] = {0}, s_dp[6] = {0}, s_ch[6] = {0};
#endif
  const u64 warps = (u64)gridDim.x * blockDim.x / 32;
  for (u64 g = ((u64)blockIdx.x * blockDim.x + threadIdx.x) / 32; g * 64 < rows; g += warps) {
    // Decode both rows first so their loads are in flight together (columns are padded
    // by a group, so the tail reads stay in bounds).
    u32 ship_v[2], slot_v[2], q_v[2], p_v[2], d_v[2], t_v[2];
#pragma unroll
    for (u32 h = 0; h < 2; ++h) {
      const u32 i = h * 32 + (threadIdx.x & 31);
      ship_v[h] = field<SHIP_BITS>(ship, g, i) + SHIP_BASE;
      slot_v[h] = field<FLAG_BITS>(flag, g, i) * 2 + field<STATUS_BITS>(status, g, i);
      q_v[h] = field<QTY_BITS>(qty, g, i) + QTY_BASE;
      p_v[h] = field<PRICE_BITS>(price, g, i) + PRICE_BASE;
      d_v[h] = field<DISC_BITS>(disc, g, i) + DISC_BASE;
      t_v[h] = field<TAX_BITS>(tax, g, i) + TAX_BASE;
    }
#pragma unroll
    for (u32 h = 0; h < 2; ++h) {
      if (g * 64 + h * 32 + (threadIdx.x & 31) >= rows) break;
      if (ship_v[h] > cutoff) continue;
      const u32 slot = slot_v[h], q = q_v[h], p = p_v[h], d = d_v[h], t = t_v[h];
      const i64 dp = (i64)p * (i64)(100 - d);
      const i64 ch = dp * (i64)(100 + t);
#ifdef SHARED_TABLES
      CELL(n_t, slot) += 1; CELL(qty_t, slot) += q; CELL(disc_t, slot) += d;
      CELL(price_t, slot) += p; CELL(dp_t, slot) += dp; CELL(ch_t, slot) += ch;
#else
#pragma unroll
      for (u32 s = 0; s < 6; ++s) {
        if (slot == s) {
          n[s] += 1; s_qty[s] += q; s_disc[s] += d;
          s_price[s] += p; s_dp[s] += dp; s_ch[s] += ch;
        }
      }
#endif
    }
  }
#pragma unroll
  for (int s = 0; s < 6; ++s) {
#ifdef SHARED_TABLES
    const i64 a = warp_sum((i64)CELL(qty_t, s)), b = warp_sum(CELL(price_t, s)),
              c = warp_sum(CELL(dp_t, s)), e = warp_sum(CELL(ch_t, s)),
              f = warp_sum((i64)CELL(disc_t, s));
    const u64 m = warp_sum((u64)CELL(n_t, s));
#else
    const i64 a = warp_sum((i64)s_qty[s]), b = warp_sum(s_price[s]), c = warp_sum(s_dp[s]),
              e = warp_sum(s_ch[s]), f = warp_sum((i64)s_disc[s]);
    const u64 m = warp_sum((u64)n[s]);
#endif
    if (is_lane_zero()) {
      atomic_add(&out[s * 5 + 0], (i128)a); atomic_add(&out[s * 5 + 1], (i128)b);
      atomic_add(&out[s * 5 + 2], (i128)c); atomic_add(&out[s * 5 + 3], (i128)e);
      atomic_add(&out[s * 5 + 4], (i128)f); atomic_add(&counts[s], m);
    }
  }
}
)";

}  // namespace tally::bench
