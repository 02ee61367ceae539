// Device code of the Q1 benchmark's peers, compiled with NVRTC at run time: a read-only
// bandwidth probe (the floor's denominator), and a hand-written TPC-H Q1 kernel over the
// same encoded columns, written the way an expert would without a query compiler:
// per-thread register accumulators for the 6 (returnflag, linestatus) slots in 64-bit
// integers (one thread's rows cannot overflow them at TPC-H's value ranges), 128-bit
// products only where needed, warp reductions, one atomic per warp and slot.
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
// linestatus (dictionary codes, bit-packed), shipdate (bit-packed days). Output per slot
// (flag * 2 + status): sum_qty, sum_price, sum_disc_price (scale 4), sum_charge (scale 6),
// sum_disc, count — the host finishes the averages.
inline const char* kHandQ1Kernel = R"(
#include "tally_types.cuh"
#include "tally_decode.cuh"
#include "tally_atomics.cuh"
#include "tally_reduce.cuh"
using namespace tally;

struct Col { const u64* words; i64 base; u32 bits; };

extern "C" __global__ void __launch_bounds__(256) hand_q1(
    Col qty, Col price, Col disc, Col tax, Col flag, Col status, Col ship, u64 rows, i64 cutoff,
    i128* out /* 6 slots x 5 sums */, u64* counts /* 6 */) {
  i64 s_qty[6] = {0}, s_price[6] = {0}, s_disc[6] = {0}, s_dp[6] = {0}, s_ch[6] = {0};
  u64 n[6] = {0};
  for (u64 r = global_thread_index(); r < rows; r += grid_stride()) {
    const i64 d = BitPackedColumn{ship.words, ship.base, ship.bits}.get(r);
    if (d > cutoff) continue;
    const int slot = (int)(BitPackedColumn{flag.words, flag.base, flag.bits}.get(r) * 2 +
                           BitPackedColumn{status.words, status.base, status.bits}.get(r));
    const i64 q = BitPackedColumn{qty.words, qty.base, qty.bits}.get(r);
    const i64 p = BitPackedColumn{price.words, price.base, price.bits}.get(r);
    const i64 di = BitPackedColumn{disc.words, disc.base, disc.bits}.get(r);
    const i64 t = BitPackedColumn{tax.words, tax.base, tax.bits}.get(r);
    const i64 dp = p * (100 - di);
    const i64 ch = dp * (100 + t);
#pragma unroll
    for (int s = 0; s < 6; ++s) {
      if (slot == s) {
        s_qty[s] += q; s_price[s] += p; s_disc[s] += di; s_dp[s] += dp; s_ch[s] += ch; n[s] += 1;
      }
    }
  }
#pragma unroll
  for (int s = 0; s < 6; ++s) {
    const i128 a = warp_sum(s_qty[s]), b = warp_sum(s_price[s]), c = warp_sum(s_dp[s]),
               e = warp_sum(s_ch[s]), f = warp_sum(s_disc[s]);
    const u64 m = warp_sum(n[s]);
    if (is_lane_zero()) {
      atomic_add(&out[s * 5 + 0], a); atomic_add(&out[s * 5 + 1], b);
      atomic_add(&out[s * 5 + 2], c); atomic_add(&out[s * 5 + 3], e);
      atomic_add(&out[s * 5 + 4], f); atomic_add(&counts[s], m);
    }
  }
}
)";

}  // namespace tally::bench
