// CPU-GPU co-processing (issue 17, tome-2018 §4): the GPU streams batches of a table's rows
// from host memory while the CPU engine aggregates chunks of the same rows on the host's
// other cores, both taking from one queue (runtime/gpu/row_queue.h) — the GPU from the front,
// the CPU from the back — so each engine's share is what its speed earns in this run, on this
// host, with the bus and the cores as busy as they are now. The parts' states combine exactly
// on the host (runtime/cpu/partial_groups.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/gpu/gpu_engine.h"

namespace tally {

struct CoprocessReport {
  GpuRunReport gpu;
  uint64_t gpu_rows = 0, cpu_rows = 0, cpu_chunks = 0;
  double gpu_part_ms = 0, cpu_part_ms = 0;
};

// Rows a CPU chunk takes on `threads` threads: four morsels a thread, at least 2^20 rows, so
// that each chunk's start-up is small beside its work and the last one ends soon after the
// GPU's last batch.
uint64_t cpu_chunk_rows(unsigned threads);

// The CPU's next chunk after its first: no more than it can finish while the GPU finishes
// the rest of `remaining` rows, at the rates (rows a ms) both showed during the CPU's last
// chunk; `base` until the GPU has moved; 0 (stop) below a sixteenth of `base`, where a
// chunk's start-up would be most of it. Whole 1024-row blocks.
uint64_t next_cpu_chunk(uint64_t base, uint64_t remaining, double cpu_rate, double gpu_rate);

// Runs an aggregated query over `table` (`parameters`: its `?`s' values; the result's strings
// in `strings`), split between `engine` (its columns streamed from host memory) and the CPU
// engine. The CPU takes its first chunk before
// the GPU starts (a table of two blocks or more gives it one) and keeps taking while the
// GPU's kernels compile.
Result run_coprocessed(GpuEngine& engine, const BoundSelect& query, const Table& table,
                       const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings,
                       const GpuRunOptions& options, CoprocessReport* report = nullptr);

// What the CPU engine's part was, for --timing: "CPU engine: 4.1% of rows in 12 chunks, 77.70 ms".
std::string describe_cpu_part(const CoprocessReport& report, uint64_t rows);

}  // namespace tally
