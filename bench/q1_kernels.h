// Device code of the Q1 benchmark's peer, compiled with NVRTC at run time: a hand-written
// TPC-H Q1 kernel over the same encoded columns in the same device layout as tally's,
// written the way an expert would without a query compiler: per-thread accumulators for the
// 6 (returnflag, linestatus) slots in registers or in shared memory (32-bit where one
// thread's rows cannot overflow them at TPC-H's value ranges, else 64-bit), a chunk of each
// lane's words loaded before any of its rows is decoded, unsigned 32 x 32 -> 64-bit
// products, warp reductions, one atomic per warp and slot.
#pragma once

namespace tally::bench {

// Columns: quantity, extendedprice, discount, tax (DECIMAL(15,2) bit-packed), returnflag,
// linestatus (dictionary codes, bit-packed), shipdate (bit-packed days), all lane-transposed
// (runtime/gpu/device_layout.h): in a block of 1024 rows, lane L's stream holds rows
// 32 j + L, j < 32, one after another. Their bit widths and bases arrive as #defines
// (QTY_BITS, QTY_BASE, ...) that the bench writes from the table, the specialisation a query
// compiler would do. Each warp walks 1024-row blocks; each lane works on its 32 rows of a
// block in chunks of CHUNK_ROWS: the chunk's words of all seven columns load together, one
// chunk ahead (two buffers), so their latencies overlap with the previous chunk's work, and
// its rows are decoded with shifts that are constants once the loops are unrolled
// (tally_decode.cuh's LaneChunk). Output per slot (flag * 2 +
// status): sum_qty, sum_price, sum_disc_price (scale 4), sum_charge (scale 6), sum_disc,
// count; the host finishes the averages.
inline const char* kHandQ1Kernel = R"(
#include "tally_types.cuh"
#include "tally_atomics.cuh"
#include "tally_decode.cuh"
#include "tally_reduce.cuh"
using namespace tally;

#ifndef CHUNK_ROWS
#define CHUNK_ROWS 8
#endif

#ifdef SHARED_TABLES
// Each thread's 6-slot table in shared memory, slot-major (conflict-free), indexed by slot
// with no branch; registers stay free for more resident warps.
struct Tables {
  u32 *n, *qty, *disc;
  i64 *price, *dp, *ch;
};
#define CELL(table, s) table[(s) * BLOCK + threadIdx.x]
#else
struct Tables {
  u32 (&n)[6], (&qty)[6], (&disc)[6];
  i64 (&price)[6], (&dp)[6], (&ch)[6];
};
#endif

// The rows of one chunk of a lane's 32 in a block.
template <typename Ship, typename Flag, typename Status, typename Qty, typename Price,
          typename Disc, typename Tax>
__device__ __forceinline__ void chunk_rows(const Ship& ship, const Flag& flag, const Status& st,
                                           const Qty& qty, const Price& price, const Disc& disc,
                                           const Tax& tax, u32 chunk, u32 lane, u32 in_block,
                                           u32 cutoff, Tables tables) {
#pragma unroll
  for (u32 step = 0; step < CHUNK_ROWS; ++step) {
    // Every row is decoded and its products formed; only the table updates are under the
    // predicate, so the unrolled rows stay one straight run of code.
    const u32 shipdate = ship.field(chunk, step) + SHIP_BASE;
    const bool pass = shipdate <= cutoff && (chunk * CHUNK_ROWS + step) * 32 + lane < in_block;
    const u32 slot = flag.field(chunk, step) * 2 + st.field(chunk, step);
    const u32 q = qty.field(chunk, step) + QTY_BASE;
    const u32 p = price.field(chunk, step) + PRICE_BASE;
    const u32 d = disc.field(chunk, step) + DISC_BASE;
    const u32 t = tax.field(chunk, step) + TAX_BASE;
    // Unsigned 32 x 32 -> 64-bit products: p < 2^24, 100 - d <= 100, dp < 2^31.
    const i64 dp = (i64)((u64)p * (u32)(100 - d));
    const i64 ch = (i64)((u64)(u32)dp * (u32)(100 + t));
    if (pass) {
#ifdef SHARED_TABLES
      CELL(tables.n, slot) += 1; CELL(tables.qty, slot) += q; CELL(tables.disc, slot) += d;
      CELL(tables.price, slot) += p; CELL(tables.dp, slot) += dp; CELL(tables.ch, slot) += ch;
#else
#pragma unroll
      for (u32 s = 0; s < 6; ++s) {
        if (slot == s) {
          tables.n[s] += 1; tables.qty[s] += q; tables.disc[s] += d;
          tables.price[s] += p; tables.dp[s] += dp; tables.ch[s] += ch;
        }
      }
#endif
    }
  }
}

extern "C" __global__ void __launch_bounds__(BLOCK, MIN_BLOCKS) hand_q1(
    const u32* __restrict__ qty, const u32* __restrict__ price, const u32* __restrict__ disc,
    const u32* __restrict__ tax, const u32* __restrict__ flag, const u32* __restrict__ status,
    const u32* __restrict__ ship, u64 rows, u32 cutoff, i128* out /* 6 slots x 5 sums */,
    u64* counts /* 6 */) {
#ifdef SHARED_TABLES
  __shared__ u32 n_t[6 * BLOCK], qty_t[6 * BLOCK], disc_t[6 * BLOCK];
  __shared__ i64 price_t[6 * BLOCK], dp_t[6 * BLOCK], ch_t[6 * BLOCK];
#define TABLES (Tables{n_t, qty_t, disc_t, price_t, dp_t, ch_t})
#pragma unroll
  for (u32 s = 0; s < 6; ++s) {
    CELL(n_t, s) = 0; CELL(qty_t, s) = 0; CELL(disc_t, s) = 0;
    CELL(price_t, s) = 0; CELL(dp_t, s) = 0; CELL(ch_t, s) = 0;
  }
#else
  u32 n[6] = {0}, s_qty[6] = {0}, s_disc[6] = {0};
  i64 s_price[6] = {0}, s_dp[6] = {0}, s_ch[6] = {0};
#define TABLES (Tables{n, s_qty, s_disc, s_price, s_dp, s_ch})
#endif
  // 32-bit walk: the bench's tables stay below 2^31 rows.
  const u32 n_rows = (u32)rows, lane = threadIdx.x & 31;
  const u32 warps = gridDim.x * blockDim.x / 32;
  const u32 first_warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  // Two buffers of a chunk's words: the next chunk's (at the end of a block, the next
  // block's first) load while this chunk's rows are worked on.
#define CHUNK_BUFFERS(X)                                                     \
  LaneChunk<SHIP_BITS, CHUNK_ROWS> X##ship; LaneChunk<FLAG_BITS, CHUNK_ROWS> X##flag; \
  LaneChunk<STATUS_BITS, CHUNK_ROWS> X##status; LaneChunk<QTY_BITS, CHUNK_ROWS> X##qty; \
  LaneChunk<PRICE_BITS, CHUNK_ROWS> X##price; LaneChunk<DISC_BITS, CHUNK_ROWS> X##disc; \
  LaneChunk<TAX_BITS, CHUNK_ROWS> X##tax;
  // This lane's stream word 0 of block b, per column.
#define LOAD_CHUNK(X, b, chunk)                                                         \
  X##ship.load(ship + (b) * 32 * SHIP_BITS + lane, chunk);                              \
  X##flag.load(flag + (b) * 32 * FLAG_BITS + lane, chunk);                              \
  X##status.load(status + (b) * 32 * STATUS_BITS + lane, chunk);                        \
  X##qty.load(qty + (b) * 32 * QTY_BITS + lane, chunk);                                 \
  X##price.load(price + (b) * 32 * PRICE_BITS + lane, chunk);                           \
  X##disc.load(disc + (b) * 32 * DISC_BITS + lane, chunk);                              \
  X##tax.load(tax + (b) * 32 * TAX_BITS + lane, chunk);
  CHUNK_BUFFERS(a_) CHUNK_BUFFERS(b_)
  if (first_warp * 1024 < n_rows) { LOAD_CHUNK(a_, first_warp, 0) }
  for (u32 b = first_warp; b * 1024 < n_rows; b += warps) {
    // The last block is stored whole, its rows past the end zero: they must not count.
    const u32 in_block = min(1024u, n_rows - b * 1024);
#pragma unroll
    for (u32 chunk = 0; chunk < 32 / CHUNK_ROWS; chunk += 2) {
      LOAD_CHUNK(b_, b, chunk + 1)
      chunk_rows(a_ship, a_flag, a_status, a_qty, a_price, a_disc, a_tax, chunk, lane, in_block,
                 cutoff, TABLES);
      if (chunk + 2 < 32 / CHUNK_ROWS) { LOAD_CHUNK(a_, b, chunk + 2) }
      else if ((b + warps) * 1024 < n_rows) { LOAD_CHUNK(a_, b + warps, 0) }
      chunk_rows(b_ship, b_flag, b_status, b_qty, b_price, b_disc, b_tax, chunk + 1, lane,
                 in_block, cutoff, TABLES);
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
