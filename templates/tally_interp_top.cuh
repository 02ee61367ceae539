// The interpreted tier's device selection for ORDER BY ... LIMIT over a large result
// (tally_interp_rank.cuh): one launch ranks every slot of the interpreter's table, a few
// histograms of the ranks find the k-th group's rank 8 bits at a time (the host picks each
// digit, runtime/gpu/interpreted_top.h), and a gather copies out the groups ranked at or
// before it, so that 15 M groups leave the device as a few dozen.
#pragma once

#include "tally_interp_kernel.cuh"
#include "tally_interp_rank.cuh"

namespace tally {

// ranks[s] for every slot s of the table; tally_interp::kRankEmpty where s holds no group.
extern "C" __global__ void __launch_bounds__(kInterpThreads)
    tally_interp_rank(const InterpTable t, const tally_interp::Program p,
                      const tally_interp::TopOrder o, u64* ranks) {
  const GlobalTableRef table = t.table();
  for (u64 s = global_thread_index(); s < t.slots; s += grid_stride()) {
    if (!table.occupied(s)) {
      ranks[s] = tally_interp::kRankEmpty;
      continue;
    }
    const auto cell = [&](int f) { return (i64)(u64)t.cells[(u64)f * t.slots + s]; };
    ranks[s] = tally_interp::group_rank(p, o, table.key_at(s), cell);
  }
}

// Counts the ranks within `prefix` (above the digit at `shift`) by that digit into bins.
extern "C" __global__ void __launch_bounds__(kInterpThreads)
    tally_interp_rank_histogram(const u64* ranks, u64 slots, u64 prefix, u32 shift, u32* bins) {
  __shared__ u32 local[tally_interp::kRankBins];
  for (u32 i = threadIdx.x; i < tally_interp::kRankBins; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (u64 s = global_thread_index(); s < slots; s += grid_stride()) {
    const u64 rank = ranks[s];
    if (rank == tally_interp::kRankEmpty || !tally_interp::rank_in_prefix(rank, prefix, shift))
      continue;
    atomicAdd(&local[(rank >> shift) & (tally_interp::kRankBins - 1)], 1u);
  }
  __syncthreads();
  for (u32 i = threadIdx.x; i < tally_interp::kRankBins; i += blockDim.x) {
    if (local[i] != 0) atomicAdd(&bins[i], local[i]);
  }
}

// Copies out each group ranked at or before `threshold`: its number to groups[i] and its
// fields to cells[i * field_count ...] (group-major, as the host finishes them), i counted
// by `taken`, of which the host expects `room` (and checks).
extern "C" __global__ void __launch_bounds__(kInterpThreads)
    tally_interp_gather(const InterpTable t, const tally_interp::Program p, const u64* ranks,
                        u64 threshold, u64* groups, i128* cells, u32* taken, u32 room) {
  const GlobalTableRef table = t.table();
  for (u64 s = global_thread_index(); s < t.slots; s += grid_stride()) {
    if (ranks[s] > threshold) continue;
    const u32 i = atomicAdd(taken, 1u);
    if (i >= room) continue;
    groups[i] = table.key_at(s);
    for (int f = 0; f < p.field_count; ++f) {
      cells[(u64)i * p.field_count + f] = t.cells[(u64)f * t.slots + s];
    }
  }
}

}  // namespace tally
