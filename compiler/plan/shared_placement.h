// Where a GPU plan's tables in shared memory go: per-thread tables in shared memory, a Block
// plan's table (whole, or in slices of its slots), and a Direct or Hash plan's block cache.
// Each sizes its tables and the Scan's launch to the device's shared memory.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/plan/gpu_plan.h"

namespace tally {

// A block table holds at most this many slots.
inline constexpr uint64_t kMaxBlockSlots = 1ull << 16;
inline constexpr uint32_t kAutoBlockSlices = 8;        // auto slices a Block table up to this many
inline constexpr uint32_t kAutoBlockSlicesPacked = 5;  // ... where Direct would pack (planner.cpp)
inline constexpr uint32_t kForcedBlockSlices = 16;     // --strategy block up to this many

// The launch of a Block plan and its table.
struct BlockPlacement {
  uint32_t block = 0, grid = 0, blocks_per_sm = 0;
  BlockTable table;
};

// A block table's launch: the threads an SM holds for a chunked scan, split into as many
// blocks (up to 4) as their tables fit beside each other in its shared memory; fewer blocks
// of more threads share a larger table. At each block count a table that does not fit is
// packed (pack_block_table). None when even one block's packed table does not fit.
std::optional<BlockPlacement> place_block_table(const StateLayout& layout, const BoundSelect& query,
                                                const std::vector<ColumnStats>& stats,
                                                uint64_t rows, uint64_t slots,
                                                const DeviceLimits& limits);

// A Block plan over a domain larger than one block's table: the Scan runs once per slice of
// the slots, each pass merging its slice's rows in shared memory. Each pass reads every row,
// so few slices pay: against Direct's global atomics on an H100 (bench/RESULTS_groupby_sweep.md,
// session 18), 2 slices ran 6.0x faster, 4 slices 3.1x, 8 slices 1.5x, 16 slices 0.76x.
struct BlockSlices {
  uint32_t count = 1;
  uint64_t slots = 0;  // a slice's
  BlockPlacement placement;
};
// The fewest slices (2 to kForcedBlockSlices, any count) whose table fits; none if none does.
// The same at `blocks` blocks an SM (the SM's threads split among them), or none where the
// table does not fit there.
std::optional<BlockPlacement> place_block_table_at(const StateLayout& layout,
                                                   const BoundSelect& query,
                                                   const std::vector<ColumnStats>& stats,
                                                   uint64_t rows, uint64_t slots,
                                                   const DeviceLimits& limits, uint32_t blocks);

// Copies of a one-pass Block table (of `table_bytes`) that fit beside each other at
// `blocks_per_sm` blocks an SM: a power of two up to kMaxBlockReplicas (GpuPlan::block_replicas).
inline constexpr uint32_t kMaxBlockReplicas = 8;
uint32_t block_table_replicas(uint64_t table_bytes, uint32_t blocks_per_sm,
                              const DeviceLimits& limits);

// A one-pass Block plan's copies of its table (GpuPlan::block_replicas), its shared bytes
// multiplied by them. A table that leaves no room for a second copy takes half the blocks an
// SM, each of twice the threads, where two copies then fit.
void place_block_copies(GpuPlan& plan, const BoundSelect& query,
                        const std::vector<ColumnStats>& stats, const DeviceLimits& limits);

std::optional<BlockSlices> place_block_slices(const StateLayout& layout, const BoundSelect& query,
                                              const std::vector<ColumnStats>& stats, uint64_t rows,
                                              uint64_t slots, const DeviceLimits& limits);

// Per-thread tables in shared memory, in blocks of 128, with the grid one wave of as many
// blocks per SM as their tables fit (and the registers): a second wave repeats every block's
// table set-up and flush and idles SMs at its tail. Tables over the static 48 KB stay in
// registers.
void place_thread_tables_in_shared(GpuPlan& plan, const BoundSelect& query,
                                   const std::vector<ColumnStats>& stats,
                                   const DeviceLimits& limits);

// The second pass's table (DOUBLE variances) of a Block plan in one pass: an f64 cell of each
// second-pass field for every slot, in static shared memory, merged with shared atomics and
// flushed once a block. Its bytes, or 0 where it does not fit kMaxStaticSharedBytes (or a
// field is not an f64 sum): the second pass then merges with global atomics.
uint64_t second_pass_block_bytes(const GpuPlan& plan);

// A Direct or Hash plan's block cache of hot groups in shared memory, where one fits.
void place_block_cache(GpuPlan& plan, const BoundSelect& query,
                       const std::vector<ColumnStats>& stats, const DeviceLimits& limits);

}  // namespace tally
