// tally device library: programmatic dependent launch (sm_90). The runtime queues the
// Finalizer behind a one-pass Scan with the driver's programmatic stream serialization, so
// the Finalizer's launch is prepared while the Scan's last blocks flush instead of after the
// Scan has ended. Correctness never depends on the early launch: the Finalizer waits for
// the whole Scan (and its memory) before it reads a state. Launched the ordinary way, both
// calls return at once.
#pragma once

#include "tally_types.cuh"

namespace tally {

// The Scan: this block has no more work that a dependent kernel needs to wait to be
// scheduled for (its merges still complete before the dependent's wait returns).
TALLY_DEV void allow_dependent_launch() { asm volatile("griddepcontrol.launch_dependents;"); }

// The Finalizer, before anything else: waits until the grid before it has completed and
// its writes are visible.
TALLY_DEV void wait_for_prior_grid() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

}  // namespace tally
