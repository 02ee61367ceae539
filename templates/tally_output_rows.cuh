// tally device library: output rows for the Finalizer's groups. A warp looks at several
// slots a lane, then claims the rows of all the groups among them with one atomic: one atomic
// a warp and slot on one counter serialized in L2 (1.9 M of them for 60 M slots), and a
// block-wide claim waited on its atomic every round. Rows go in order of the lane's slot j,
// then lane, so that each j's rows are adjacent and a warp's writes coalesce.
#pragma once

#include "tally_reduce.cuh"
#include "tally_types.cuh"

namespace tally {

struct WarpOutputRows {
  u64 next_row;  // the row of the first group among the lanes' next slots

  // Every lane of the warp calls this; bit j of `kept`: the lane's j-th slot is a group.
  static TALLY_DEV WarpOutputRows claim(u32 kept, u64* out_count) {
    const u32 total = __reduce_add_sync(kFullWarp, (u32)__popc(kept));
    u64 first = 0;
    if (is_lane_zero() && total != 0) first = atomicAdd(out_count, (u64)total);
    return WarpOutputRows{__shfl_sync(kFullWarp, first, 0)};
  }

  // The row of this lane's j-th slot: every lane calls this for j = 0, 1, ... in order.
  TALLY_DEV u64 take(u32 kept, u32 j) {
    const u32 ballot = __ballot_sync(kFullWarp, (kept >> j) & 1u);
    const u32 lanes_before = (1u << (threadIdx.x & 31u)) - 1u;
    const u64 row = next_row + __popc(ballot & lanes_before);
    next_row += __popc(ballot);
    return row;
  }
};

}  // namespace tally
