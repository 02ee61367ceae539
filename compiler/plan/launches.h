// The kernels a plan runs, in order, and how: the runtime walks this list, the code
// generator writes one kernel per entry, and the kernels' names live here only.
#pragma once

#include <cstdint>
#include <vector>

namespace tally {

enum class KernelId : uint8_t {
  Init,       // state arrays to their identities
  Scan,       // decode, filter, keys, merge: one pass over the rows
  ScanM2,     // the second pass of DOUBLE variances: deviations from the first pass's means
  Finalize,   // occupied slots compacted, keys decoded, finals computed
  ScanCount,  // projection: rows that pass, per block
  ScanWrite,  // projection: the passing rows' outputs, in input order
};
const char* kernel_name(KernelId kernel);

// A launch's grid: the plan's scan grid, or enough blocks for the state slots.
enum class LaunchGrid : uint8_t { Scan, States };

struct Launch {
  KernelId kernel;
  LaunchGrid grid;
  // Launched as the previous launch's programmatic dependent (sm_90): its launch overlaps
  // the end of that kernel, and it waits for it before reading what it wrote.
  bool dependent = false;
};

// An aggregation's launches. `scan_sets_states`: the Scan's first block writes the
// identities (templates/tally_init_in_scan.cuh), so there is no Init, and a Finalizer right
// behind a one-pass Scan is its dependent.
std::vector<Launch> aggregation_launches(bool scan_sets_states, bool second_pass);

// A non-aggregated query's: the count pass, then (after the host places each block's rows)
// the write pass.
std::vector<Launch> projection_launches();

bool has_launch(const std::vector<Launch>& launches, KernelId kernel);

}  // namespace tally
