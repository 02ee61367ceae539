// Device code of the Q1 benchmark's peers, compiled with NVRTC at run time: a read-only
// bandwidth probe (the floor's denominator), and a hand-written TPC-H Q1 kernel over the
// same encoded columns, written the way an expert would without a query compiler:
// per-thread accumulators for the 6 (returnflag, linestatus) slots in registers or in
// shared memory (32-bit where one thread's rows cannot overflow them at TPC-H's value
// ranges, else 64-bit), fields decoded through 32-bit words a group ahead, unsigned
// 32 x 32 -> 64-bit products, warp reductions, one atomic per warp and slot.
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

// A lane's two rows of a group (lane, lane + 32) read through 32-bit words: a field of
// fewer than 32 bits straddles at most two, and one funnel shift extracts it. Loading is
// separate from extracting so the next group's words can be in flight during this one's
// arithmetic.
template <u32 BITS>
__device__ __forceinline__ void load_words(const u32* __restrict__ col, u32 g, u32 lane,
                                           u32 (&w)[4]) {
  const u32* p = col + g * (2 * BITS) + ((lane * BITS) >> 5);
  w[0] = __ldg(p);
  w[2] = __ldg(p + BITS);  // row lane + 32: BITS words on, same shift
  if (32 % BITS != 0) {
    w[1] = __ldg(p + 1);
    w[3] = __ldg(p + BITS + 1);
  }
}

template <u32 BITS>
__device__ __forceinline__ u32 extract(const u32 (&w)[4], u32 lane, u32 h) {
  const u32 shift = (lane * BITS) & 31;
  const u32 lo = h ? w[2] : w[0];
  const u32 v = (32 % BITS != 0) ? __funnelshift_r(lo, h ? w[3] : w[1], shift) : lo >> shift;
  return v & ((1u << BITS) - 1);
}

extern "C" __global__ void __launch_bounds__(BLOCK, MIN_BLOCKS) hand_q1(
    const u32* __restrict__ qty, const u32* __restrict__ price, const u32* __restrict__ disc,
    const u32* __restrict__ tax, const u32* __restrict__ flag, const u32* __restrict__ status,
    const u32* __restrict__ ship, u64 rows, u32 cutoff, i128* out /* 6 slots x 5 sums */,
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
  // 32-bit walk: the bench's tables stay below 2^31 rows.
  const u32 n_rows = (u32)rows, lane = threadIdx.x & 31;
  const u32 warps = gridDim.x * blockDim.x / 32;
  const u32 first = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  u32 w_ship[4] = {0}, w_flag[4] = {0}, w_status[4] = {0}, w_qty[4] = {0}, w_price[4] = {0},
      w_disc[4] = {0}, w_tax[4] = {0};
#define LOAD_GROUP(g)                                         \
  load_words<SHIP_BITS>(ship, g, lane, w_ship);               \
  load_words<FLAG_BITS>(flag, g, lane, w_flag);               \
  load_words<STATUS_BITS>(status, g, lane, w_status);         \
  load_words<QTY_BITS>(qty, g, lane, w_qty);                  \
  load_words<PRICE_BITS>(price, g, lane, w_price);            \
  load_words<DISC_BITS>(disc, g, lane, w_disc);               \
  load_words<TAX_BITS>(tax, g, lane, w_tax);
  if (first * 64 < n_rows) { LOAD_GROUP(first) }
  for (u32 g = first; g * 64 < n_rows; g += warps) {
    u32 ship_v[2], slot_v[2], q_v[2], p_v[2], d_v[2], t_v[2];
#pragma unroll
    for (u32 h = 0; h < 2; ++h) {
      ship_v[h] = extract<SHIP_BITS>(w_ship, lane, h) + SHIP_BASE;
      slot_v[h] = extract<FLAG_BITS>(w_flag, lane, h) * 2 + extract<STATUS_BITS>(w_status, lane, h);
      q_v[h] = extract<QTY_BITS>(w_qty, lane, h) + QTY_BASE;
      p_v[h] = extract<PRICE_BITS>(w_price, lane, h) + PRICE_BASE;
      d_v[h] = extract<DISC_BITS>(w_disc, lane, h) + DISC_BASE;
      t_v[h] = extract<TAX_BITS>(w_tax, lane, h) + TAX_BASE;
    }
    // The next group's loads fly while this group's rows are summed (columns are padded
    // by a group, so reads past the last field stay in bounds).
    if ((g + warps) * 64 < n_rows) { LOAD_GROUP(g + warps) }
    const u32 in_group = min(64u, n_rows - g * 64);
#pragma unroll
    for (u32 h = 0; h < 2; ++h) {
      if (h * 32 + lane >= in_group) break;
      if (ship_v[h] > cutoff) continue;
      const u32 slot = slot_v[h], q = q_v[h], p = p_v[h], d = d_v[h], t = t_v[h];
      // Unsigned 32 x 32 -> 64-bit products: p < 2^24, 100 - d <= 100, dp < 2^31.
      const i64 dp = (i64)((u64)p * (u32)(100 - d));
      const i64 ch = (i64)((u64)(u32)dp * (u32)(100 + t));
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
#ifdef SHARED_TABLES
  // One merge per block: warp w folds slots w, w + 4 over the block's 128 threads.
  __syncthreads();
  for (int s = threadIdx.x / 32; s < 6; s += BLOCK / 32) {
    i64 qa = 0, pa = 0, da = 0, ca = 0, fa = 0;
    u64 na = 0;
#pragma unroll
    for (u32 part = 0; part < BLOCK; part += 32) {
      const u32 t = s * 128 + part + (threadIdx.x & 31);
      qa += qty_t[t]; pa += price_t[t]; da += dp_t[t]; ca += ch_t[t]; fa += disc_t[t]; na += n_t[t];
    }
    const i64 a = warp_sum(qa), b = warp_sum(pa), c = warp_sum(da), e = warp_sum(ca),
              f = warp_sum(fa);
    const u64 m = warp_sum(na);
    if (is_lane_zero()) {
      atomic_add(&out[s * 5 + 0], (i128)a); atomic_add(&out[s * 5 + 1], (i128)b);
      atomic_add(&out[s * 5 + 2], (i128)c); atomic_add(&out[s * 5 + 3], (i128)e);
      atomic_add(&out[s * 5 + 4], (i128)f); atomic_add(&counts[s], m);
    }
  }
#else
#pragma unroll
  for (int s = 0; s < 6; ++s) {
    const i64 a = warp_sum((i64)s_qty[s]), b = warp_sum(s_price[s]), c = warp_sum(s_dp[s]),
              e = warp_sum(s_ch[s]), f = warp_sum((i64)s_disc[s]);
    const u64 m = warp_sum((u64)n[s]);
    if (is_lane_zero()) {
      atomic_add(&out[s * 5 + 0], (i128)a); atomic_add(&out[s * 5 + 1], (i128)b);
      atomic_add(&out[s * 5 + 2], (i128)c); atomic_add(&out[s * 5 + 3], (i128)e);
      atomic_add(&out[s * 5 + 4], (i128)f); atomic_add(&counts[s], m);
    }
  }
#endif
}
)";

}  // namespace tally::bench
