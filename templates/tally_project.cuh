// tally device library: the order-preserving compaction of a non-aggregated query (the
// projection scan). Each block owns one contiguous range of rows and walks it in tiles of
// 64 rows per warp, two rows per lane as the aggregation scan reads them (lane l holds rows
// l and 32 + l of its warp's 64). A passing row's place in the output is the number of
// passing rows before it: in earlier blocks (an exclusive scan of the count pass's block
// counts), in earlier tiles of its block, in earlier warps of its tile (shared memory), and
// in lower lanes of its warp (ballot + popc). So the output keeps input row order, whatever
// order the blocks run in, and the result is deterministic.
#pragma once

#include "tally_reduce.cuh"
#include "tally_types.cuh"

namespace tally {

constexpr u32 kProjectWarpRows = 64;
constexpr u32 kProjectMaxWarps = 32;  // 1024 threads per block

struct RowRange {
  u64 begin;
  u64 end;
};

// The rows this block owns: equal shares of whole tiles, so both passes of a query (same
// grid, same block) see the same ranges, and every range starts on a 64-row group.
TALLY_DEV RowRange block_row_range(u64 rows) {
  const u64 tile = (u64)(blockDim.x / 32) * kProjectWarpRows;
  const u64 tiles = (rows + tile - 1) / tile;
  const u64 per_block = (tiles + gridDim.x - 1) / gridDim.x * tile;
  const u64 begin = (u64)blockIdx.x * per_block;
  const u64 end = begin + per_block;
  return {begin < rows ? begin : rows, end < rows ? end : rows};
}

TALLY_DEV u64 tile_rows() { return (u64)(blockDim.x / 32) * kProjectWarpRows; }

// The 64-row group this lane's warp reads in the tile starting at row `tile`.
TALLY_DEV u64 tile_group(u64 tile) { return tile / kProjectWarpRows + (threadIdx.x >> 5); }

// Count pass: adds this lane's passing rows to its block's count (zeroed by the host).
// Every lane of the warp must call it.
TALLY_DEV void add_block_count(u32 passed, u64* block_counts) {
  const u32 warp_passed = warp_sum(passed);
  if (is_lane_zero()) atomicAdd(block_counts + blockIdx.x, (u64)warp_passed);
}

// Where this lane's two rows go, relative to the first output row of the tile, and how
// many rows of the tile pass.
struct TilePlaces {
  u32 first;   // of row l (valid when it passes)
  u32 second;  // of row 32 + l
  u32 total;
};

// Every thread of the block must call it, once per tile (it synchronizes the block).
// `warp_counts` is a __shared__ array of one entry per warp.
TALLY_DEV TilePlaces place_tile_rows(bool first_passes, bool second_passes, u32* warp_counts) {
  const u32 lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const u32 lower_lanes = (1u << lane) - 1u;
  const u32 first = __ballot_sync(kFullWarp, first_passes);
  const u32 second = __ballot_sync(kFullWarp, second_passes);
  if (lane == 0) warp_counts[warp] = __popc(first) + __popc(second);
  __syncthreads();
  u32 before = 0, total = 0;
  for (u32 w = 0; w < warps; ++w) {
    const u32 count = warp_counts[w];
    before += w < warp ? count : 0;
    total += count;
  }
  __syncthreads();  // the next tile rewrites warp_counts
  return {before + __popc(first & lower_lanes),
          before + __popc(first) + __popc(second & lower_lanes), total};
}

}  // namespace tally
