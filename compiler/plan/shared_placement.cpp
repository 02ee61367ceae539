#include "compiler/plan/shared_placement.h"

#include <algorithm>
#include <bit>

namespace tally {

namespace {

// sm_90 keeps 1 KB of shared memory per resident block for itself.
constexpr uint64_t kSharedReservedPerBlock = 1024;

// Shared memory a block may use at `blocks` blocks an SM: its share of the SM, at most the
// opt-in limit, less what sm_90 keeps for itself.
uint64_t shared_room(const DeviceLimits& limits, uint64_t blocks) {
  return std::min(limits.shared_per_block_optin, limits.shared_per_sm / blocks) -
         kSharedReservedPerBlock;
}

// Registers a thread of a scan with shared thread tables keeps: its two LaneChunk buffers
// and the rows in flight need about 64, and fewer make ptxas spill in the scan loop.
constexpr int kChunkedScanRegisters = 64;

// Threads of a chunked scan an SM holds: its thread limit, or its registers at
// kChunkedScanRegisters each.
int chunked_scan_threads_per_sm(const DeviceLimits& limits) {
  return std::min(limits.max_threads_per_sm, limits.registers_per_sm / kChunkedScanRegisters);
}

}  // namespace

// A thread's share of rows grows as the grid shrinks, and its cells may widen with it, so the
// fit is iterated to a fixed point (the block count only falls).
void place_thread_tables_in_shared(GpuPlan& plan, const BoundSelect& query,
                                   const std::vector<ColumnStats>& stats,
                                   const DeviceLimits& limits) {
  GpuPlan shared = plan;
  shared.shared_thread_tables = true;
  shared.block = 128;
  auto table_bytes = [&] {
    return plan_thread_tables(plan.layout, query, stats, plan.rows, shared.grid, shared.block,
                              plan.slots, true)
        .shared_bytes;
  };
  const int threads = chunked_scan_threads_per_sm(limits);
  auto blocks = static_cast<uint32_t>(std::max(threads, 128) / 128);
  for (;;) {
    shared.grid = static_cast<uint32_t>(limits.sm_count) * blocks;
    const uint64_t bytes = table_bytes();
    if (bytes > kMaxStaticSharedBytes) return;
    auto fit = static_cast<uint32_t>(
        std::clamp<uint64_t>(limits.shared_per_sm / (bytes + kSharedReservedPerBlock), 1, blocks));
    if (fit == blocks) {
      shared.blocks_per_sm = blocks;
      shared.reason +=
          fmt::format("; per-thread tables in shared memory ({} bytes a block, {} blocks an SM)",
                      bytes, blocks);
      plan = shared;
      return;
    }
    blocks = fit;
  }
}

std::optional<BlockPlacement> place_block_table_at(const StateLayout& layout,
                                                   const BoundSelect& query,
                                                   const std::vector<ColumnStats>& stats,
                                                   uint64_t rows, uint64_t slots,
                                                   const DeviceLimits& limits, uint32_t blocks) {
  const int threads = chunked_scan_threads_per_sm(limits);
  const auto block = static_cast<uint32_t>(std::min(threads / static_cast<int>(blocks), 1024));
  if (block < 128) return std::nullopt;
  const uint32_t grid = static_cast<uint32_t>(limits.sm_count) * blocks;
  BlockTable t = plan_block_table(layout, query, stats, rows, grid, block, slots);
  const uint64_t room = shared_room(limits, blocks);
  if (t.shared_bytes > room) {
    t = pack_block_table(std::move(t), layout, query, stats, rows, grid, block, slots);
    if (t.shared_bytes > room) return std::nullopt;
  }
  return BlockPlacement{block, grid, blocks, std::move(t)};
}

std::optional<BlockPlacement> place_block_table(const StateLayout& layout, const BoundSelect& query,
                                                const std::vector<ColumnStats>& stats,
                                                uint64_t rows, uint64_t slots,
                                                const DeviceLimits& limits) {
  for (uint32_t blocks : {4u, 2u, 1u}) {
    auto placed = place_block_table_at(layout, query, stats, rows, slots, limits, blocks);
    if (placed) return placed;
  }
  return std::nullopt;
}

uint32_t block_table_replicas(uint64_t table_bytes, uint32_t blocks_per_sm,
                              const DeviceLimits& limits) {
  const uint64_t blocks = std::max<uint32_t>(blocks_per_sm, 1);
  const uint64_t room = shared_room(limits, blocks);
  uint32_t replicas = 1;
  while (replicas < kMaxBlockReplicas && 2 * replicas * table_bytes <= room) replicas *= 2;
  return replicas;
}

// Fewer blocks for two copies: on an H200, 4,096 and 8,192 groups ran 15-19% faster so under
// uniform keys and 21-28% under Zipf 1.5 (bench/RESULTS_groupby_sweep.md, session 32). A packed
// table keeps one copy: it was packed because one unpacked copy did not fit.
void place_block_copies(GpuPlan& plan, const BoundSelect& query,
                        const std::vector<ColumnStats>& stats, const DeviceLimits& limits) {
  auto copies = [&](const BlockTable& table, uint32_t blocks) {
    return table.packed.words > 0 ? 1u : block_table_replicas(table.shared_bytes, blocks, limits);
  };
  if (plan.blocks_per_sm > 1 && copies(plan.block_table, plan.blocks_per_sm) == 1) {
    auto fewer = place_block_table_at(plan.layout, query, stats, plan.rows, plan.slots, limits,
                                      plan.blocks_per_sm / 2);
    if (fewer && copies(fewer->table, fewer->blocks_per_sm) > 1) {
      plan.block = fewer->block;
      plan.grid = fewer->grid;
      plan.blocks_per_sm = fewer->blocks_per_sm;
      plan.block_table = std::move(fewer->table);
    }
  }
  plan.block_replicas = copies(plan.block_table, plan.blocks_per_sm);
  plan.block_table.shared_bytes *= plan.block_replicas;
}

std::optional<BlockSlices> place_block_slices(const StateLayout& layout, const BoundSelect& query,
                                              const std::vector<ColumnStats>& stats, uint64_t rows,
                                              uint64_t slots, const DeviceLimits& limits) {
  for (uint32_t count = 2; count <= kForcedBlockSlices; ++count) {
    const uint64_t slice = (slots + count - 1) / count;
    if (slice > kMaxBlockSlots) continue;
    auto placed = place_block_table(layout, query, stats, rows, slice, limits);
    if (placed) return BlockSlices{count, slice, std::move(*placed)};
  }
  return std::nullopt;
}

// A Direct or Hash plan's block cache: each block keeps the groups its rows hit first in a
// shared hash table (keyed by global slot, a u32 tag beside each slot's cells) and merges
// them with shared atomics, flushing once per block; rows of other groups take the global
// atomics. Hot keys then cost shared atomics, not contended global ones (libcudf's shared
// table in front of the global one; karnagel-2015's block placement under skew). Sized to
// the launch's share of an SM's shared memory and to at most twice the table's slots (a
// small table's groups then rarely collide in it: there contention is worst); none where
// the room holds fewer than kMinCacheSlots, for 128-bit cells, or for sketches.
void place_block_cache(GpuPlan& plan, const BoundSelect& query,
                       const std::vector<ColumnStats>& stats, const DeviceLimits& limits) {
  constexpr uint64_t kMinCacheSlots = 64;
  constexpr uint64_t kFreeTag = 0xFFFFFFFFull;  // kEmptyKey32: a slot must stay below it
  if (plan.state_slots >= kFreeTag || plan.layout.sketches()) return;
  BlockTable t =
      plan_block_table(plan.layout, query, stats, plan.rows, plan.grid, plan.block, uint64_t{1});
  if (has_wide_cells(t)) return;  // its CAS loops contend in shared memory (planner.cpp)
  const uint64_t bytes_per_slot = t.shared_bytes + sizeof(uint32_t);
  const uint64_t blocks = std::max<uint64_t>(plan.grid / static_cast<uint64_t>(limits.sm_count), 1);
  const uint64_t room = shared_room(limits, blocks);
  const uint64_t room_slots = std::bit_floor(room / bytes_per_slot);
  if (room_slots < kMinCacheSlots) return;
  const uint64_t slots = std::min(room_slots, std::bit_ceil(2 * plan.state_slots));
  plan.block_cache_slots = static_cast<uint32_t>(slots);
  t.shared_bytes = bytes_per_slot * slots;
  plan.block_table = std::move(t);
}

uint64_t second_pass_block_bytes(const GpuPlan& plan) {
  if (plan.strategy != GpuStrategy::Block || plan.sliced() || !plan.layout.second_pass()) return 0;
  uint64_t cells = 0;
  for (const StateField& f : plan.layout.fields) {
    const FieldInfo& info = field_info(f.kind);
    if (!info.second_pass) continue;
    if (info.merge != MergeOp::Add || std::string(info.cuda_type) != "f64") return 0;
    ++cells;
  }
  const uint64_t bytes = cells * 8 * plan.slots;
  return bytes <= kMaxStaticSharedBytes ? bytes : 0;
}

}  // namespace tally
