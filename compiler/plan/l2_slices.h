// A Direct plan whose global table is larger than L2 and whose rows' keys are scattered over
// it misses L2 at nearly every merge: an H100 took 4.2 ms for 2^26 rows of COUNT(*) and SUM
// into 2^24 packed words where 2^20 words took 0.83 ms. Run the Scan once per slice of the
// slots instead, each pass merging only its slice's rows, so that a pass's slots stay in L2:
// 2.7 ms at 2^24 for eight passes over the rows (bench/groupby_peers.cu, l2_sliced). Each pass
// reads the rows again, so slices are taken only where a re-read costs less than the misses
// it saves, and not where the keys of the rows in flight together span little of the table
// (a sorted or clustered key already merges within L2), nor where a sample's keys repeat (skewed
// keys: the hot ones merge within L2 already).
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/column_stats.h"
#include "compiler/plan/gpu_plan.h"
#include "compiler/plan/gpu_target.h"

namespace tally {

inline constexpr uint32_t kMaxL2Slices = 16;
// Rows the Scan has in flight at once, about: the grid's warps each walk a block of 1,024
// rows (132 SMs x 64 warps on an H100 is 8.6 M rows; a quarter of that is what the window
// sample looks at).
inline constexpr uint64_t kRowsInFlight = uint64_t{1} << 21;

// What a sample of the rows says of where their merges land (runtime/compile/key_locality.h).
struct KeyLocality {
  uint64_t window_slots = 0;  // slots the keys of kRowsInFlight consecutive rows span
  uint64_t sampled = 0;       // rows sampled whose keys were computed
  uint64_t distinct = 0;      // distinct keys among them
};

// Bytes of global state per slot that the first pass's merges touch (the packed row count
// and sum counting 8 bytes; fields only a block cache's flush writes left out).
uint64_t merged_bytes_per_slot(const GpuPlan& plan, const BoundSelect& query,
                               const std::vector<ColumnStats>& stats);

// Whether a Direct plan's table passes the L2 share a pass may fill and slices could apply:
// the cheap test before the keys' locality is sampled.
bool l2_slices_may_pay(const GpuPlan& plan, const BoundSelect& query,
                       const std::vector<ColumnStats>& stats, const DeviceLimits& limits);

// The plan in L2 slices where that pays by `locality`; else the plan as it was. Either way
// `considered` says what was weighed.
GpuPlan with_l2_slices(GpuPlan plan, const BoundSelect& query,
                       const std::vector<ColumnStats>& stats, const DeviceLimits& limits,
                       const KeyLocality& locality);

}  // namespace tally
