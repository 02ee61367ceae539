// The GPU plan of a query without GROUP BY or aggregates: nothing to group, so no strategy
// to choose; only the launch shape of the compacting scan (templates/tally_project.cuh).
#include <fmt/format.h>

#include <algorithm>

#include "compiler/common/error.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

namespace {

constexpr uint32_t kProjectionBlock = 256;
constexpr uint64_t kTileRows = kProjectionBlock / 32 * 64;  // 64 rows per warp
// 8 blocks of 256 threads fill an SM's 2048 thread slots (sm_80 and later).
constexpr uint64_t kBlocksPerSm = 8;

}  // namespace

GpuPlan plan_projection(uint64_t rows, const DeviceLimits& limits, GpuStrategy forced) {
  if (forced != GpuStrategy::Auto) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("--strategy {} on a query without GROUP BY or aggregates (it has no "
                            "groups) is not supported",
                            strategy_name(forced)));
  }
  GpuPlan plan;
  plan.projection = true;
  plan.strategy = GpuStrategy::Auto;
  plan.slots = 0;
  plan.state_slots = 0;
  plan.block = kProjectionBlock;
  plan.rows = rows;
  // Each block owns a contiguous range of whole tiles; a small table gets one tile per
  // block rather than idle blocks.
  uint64_t tiles = (rows + kTileRows - 1) / kTileRows;
  uint64_t full_grid = static_cast<uint64_t>(std::max(limits.sm_count, 1)) * kBlocksPerSm;
  plan.grid = static_cast<uint32_t>(std::clamp<uint64_t>(tiles, 1, full_grid));
  plan.reason = "no GROUP BY or aggregates: passing rows are compacted in input order";
  plan.launches = projection_launches();
  return plan;
}

std::string describe_projection_plan(const GpuPlan& plan) {
  uint64_t tile = plan.block / 32 * 64;
  uint64_t tiles = (plan.rows + tile - 1) / tile;
  uint64_t per_block = (tiles + plan.grid - 1) / std::max<uint64_t>(plan.grid, 1);
  return fmt::format(
      "GPU plan: projection ({})\n"
      "  count pass, then write pass: {} blocks x {} threads, each block {} contiguous "
      "tile{} of {} rows\n"
      "  outputs: one dense column each, rows in input order\n",
      plan.reason, plan.grid, plan.block, per_block, per_block == 1 ? "" : "s", tile);
}

}  // namespace tally
