// tally device library: a Scan that sets its states itself, for scans that merge into them
// only once per block, at the end (per-thread tables). The block that starts first writes
// the identities while the others scan; each block waits for them before it merges. This
// saves the Init launch, which at small scales costs a few percent of the whole query.
// The coordination words follow the status word (kStatusWords in tally_status.cuh); the
// host zeroes them with it before every launch.
#pragma once

#include "tally_types.cuh"

namespace tally {

struct LaunchSync {
  u32 ticket;     // blocks that have started
  u32 init_done;  // 1 once the states hold their identities
};

// True in every thread of the block that started first: that block initializes the states.
TALLY_DEV bool first_block_to_start(LaunchSync* sync) {
  return __syncthreads_or(threadIdx.x == 0 && atomicAdd(&sync->ticket, 1u) == 0u) != 0;
}

// Called by every thread of the first block once its identity stores are issued.
TALLY_DEV void publish_init(LaunchSync* sync) {
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) atomicExch(&sync->init_done, 1u);
}

// Before a block's first merge into the states: waits until they hold their identities.
// The block that sets them took the first ticket, so it is running already: no block waits
// on one that cannot be scheduled, whatever the grid's size. By the time a block has scanned
// its share the flag is long set; the wait is one load.
TALLY_DEV void await_init(LaunchSync* sync) {
  if (threadIdx.x == 0) {
    while (*(volatile u32*)&sync->init_done == 0u) {
    }
    __threadfence();
  }
  __syncthreads();
}

}  // namespace tally
