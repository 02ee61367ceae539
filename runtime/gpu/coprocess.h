// CPU-GPU co-processing (issue 17, tome-2018 §4): while the GPU streams its share of a table's
// rows from host memory, the CPU engine aggregates the rest on the host's other cores; the
// two parts' states combine exactly on the host (runtime/cpu/partial_groups.h). The CPU's
// share is its measured rate's share of both engines' rates, rows a millisecond, so a host
// whose cores are slow next to its bus gives the CPU little.
#pragma once

#include <memory>
#include <vector>

#include "runtime/gpu/gpu_engine.h"

namespace tally {

// Rows a millisecond each engine took over its part of the last run (0: not measured yet).
struct EngineRates {
  double gpu = 0;
  double cpu = 0;
};

struct CoprocessReport {
  GpuRunReport gpu;
  uint64_t cpu_rows = 0;
  double gpu_part_ms = 0, cpu_part_ms = 0;
};

// The rows of `rows` the CPU takes at `rates` (whole 1024-row blocks; 0 until both are known).
uint64_t cpu_share_rows(uint64_t rows, const EngineRates& rates);

// Runs an aggregated query without parameters over `table`, split between `engine` (its
// columns streamed from host memory) and the CPU engine by `rates`, which it then updates
// from the parts' times.
Result run_coprocessed(GpuEngine& engine, const BoundSelect& query, const Table& table,
                       const GpuRunOptions& options, EngineRates& rates,
                       CoprocessReport* report = nullptr);

}  // namespace tally
