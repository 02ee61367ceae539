// Device code of the Q1 benchmark's peers, compiled with NVRTC at run time: a read-only
// bandwidth probe (the floor's denominator), and a hand-written TPC-H Q1 kernel over the
// same encoded columns in the same device layout as tally's, written the way an expert
// would without a query compiler: per-thread accumulators for the 6 (returnflag,
// linestatus) slots in registers or in shared memory (32-bit where one thread's rows cannot
// overflow them at TPC-H's value ranges, else 64-bit), a chunk of each lane's words loaded
// before any of its rows is decoded, unsigned 32 x 32 -> 64-bit products, warp reductions,
// one atomic per warp and slot.
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
// linestatus (dictionary codes, bit-packed), shipdate (bit-packed days), all lane-transposed
// (runtime/gpu/device_layout.h): in a block of 1024 rows, lane L's stream holds rows
// 32 j + L, j < 32, one after another. Their bit widths and bases arrive as #defines
// (QTY_BITS, QTY_BASE, ...) that the bench writes from the table, the specialisation a query
// compiler would do. Each warp walks 1024-row blocks; each lane works on its 32 rows of a
// block in chunks of CHUNK_ROWS: the chunk's words of all seven columns are loaded first, so
// their latencies overlap, then its rows are decoded with shifts that are constants once
// the loops are unrolled (tally_decode.cuh's LaneChunk). Output per slot (flag * 2 +
// status): sum_qty, sum_price, sum_disc_price (scale 4), sum_charge (scale 6), sum_disc,
// count; the host finishes the averages.
inline const char* kHandQ1Kernel = R"(
#include "tally_types.cuh"
#include "tally_atomics.cuh"
#include "tally_decode.cuh"
#include "tally_reduce.cuh"
using namespace tally;

#ifndef CHUNK_ROWS
#define CHUNK_ROWS 16
#endif

extern "C" __global__ void __launch_bounds__(BLOCK, MIN_BLOCKS) hand_q1(
    const u32* __restrict__ qty, const u32* __restrict__ price, const u32* __restrict__ disc,
    const u32* __restrict__ tax, const u32* __restrict__ flag, const u32* __restrict__ status,
    const u32* __restrict__ ship, u64 rows, u32 cutoff, i128* out /* 6 slots x 5 sums */,
    u64* counts /* 6 */) {
#ifdef SHARED_TABLES
  // Each thread's 6-slot table in shared memory, slot-major (conflict-free), indexed by
  // slot with no branch; registers stay free for more resident warps.
  __shared__ u32 n_t[6 * BLOCK], qty_t[6 * BLOCK], disc_t[6 * BLOCK];
  __shared__ i64 price_t[6 * BLOCK], dp_t[6 * BLOCK], ch_t[6 * BLOCK];
#define CELL(table, s) table[(s) * BLOCK + threadIdx.x]
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
  const u32 first_warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  for (u32 b = first_warp; b * 1024 < n_rows; b += warps) {
    // This lane's stream word 0 of block b, per column.
    const u32* ship_w = ship + b * 32 * SHIP_BITS + lane;
    const u32* flag_w = flag + b * 32 * FLAG_BITS + lane;
    const u32* status_w = status + b * 32 * STATUS_BITS + lane;
    const u32* qty_w = qty + b * 32 * QTY_BITS + lane;
    const u32* price_w = price + b * 32 * PRICE_BITS + lane;
    const u32* disc_w = disc + b * 32 * DISC_BITS + lane;
    const u32* tax_w = tax + b * 32 * TAX_BITS + lane;
    // The last block is stored whole, its rows past the end zero: they must not count.
    const u32 in_block = min(1024u, n_rows - b * 1024);
#pragma unroll
    for (u32 chunk = 0; chunk < 32 / CHUNK_ROWS; ++chunk) {
      LaneChunk<SHIP_BITS, CHUNK_ROWS> c_ship;
      LaneChunk<FLAG_BITS, CHUNK_ROWS> c_flag;
      LaneChunk<STATUS_BITS, CHUNK_ROWS> c_status;
      LaneChunk<QTY_BITS, CHUNK_ROWS> c_qty;
      LaneChunk<PRICE_BITS, CHUNK_ROWS> c_price;
      LaneChunk<DISC_BITS, CHUNK_ROWS> c_disc;
      LaneChunk<TAX_BITS, CHUNK_ROWS> c_tax;
      c_ship.load(ship_w, chunk); c_flag.load(flag_w, chunk); c_status.load(status_w, chunk);
      c_qty.load(qty_w, chunk); c_price.load(price_w, chunk); c_disc.load(disc_w, chunk);
      c_tax.load(tax_w, chunk);
#pragma unroll
      for (u32 step = 0; step < CHUNK_ROWS; ++step) {
        // Every row is decoded and its products formed; only the table updates are under
        // the predicate, so the unrolled rows stay one straight run of code.
        const u32 shipdate = c_ship.field(chunk, step) + SHIP_BASE;
        const bool pass =
            shipdate <= cutoff && (chunk * CHUNK_ROWS + step) * 32 + lane < in_block;
        const u32 slot = c_flag.field(chunk, step) * 2 + c_status.field(chunk, step);
        const u32 q = c_qty.field(chunk, step) + QTY_BASE;
        const u32 p = c_price.field(chunk, step) + PRICE_BASE;
        const u32 d = c_disc.field(chunk, step) + DISC_BASE;
        const u32 t = c_tax.field(chunk, step) + TAX_BASE;
        // Unsigned 32 x 32 -> 64-bit products: p < 2^24, 100 - d <= 100, dp < 2^31.
        const i64 dp = (i64)((u64)p * (u32)(100 - d));
        const i64 ch = (i64)((u64)(u32)dp * (u32)(100 + t));
        if (pass) {
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
    }
  }
#ifdef SHARED_TABLES
  // One merge per block: warp w folds slots w, w + BLOCK / 32, ... over the block's threads.
  __syncthreads();
  for (int s = threadIdx.x / 32; s < 6; s += BLOCK / 32) {
    i64 qa = 0, pa = 0, da = 0, ca = 0, fa = 0;
    u64 na = 0;
#pragma unroll
    for (u32 part = 0; part < BLOCK; part += 32) {
      const u32 t = s * BLOCK + part + (threadIdx.x & 31);
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
