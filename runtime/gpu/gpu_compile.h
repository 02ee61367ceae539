// From a bound query and its table to a compiled GPU program, without touching a GPU:
// column statistics -> plan -> generated CUDA -> NVRTC cubin. `tally compile` and the CI
// tests stop here; the GPU engine goes on to launch.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/gpu_program.h"
#include "runtime/cuda/nvrtc.h"
#include "runtime/storage/table.h"

namespace tally {

// What the planner needs of each scan column.
std::vector<ColumnStats> scan_stats(const BoundSelect& query, const Table& table);

struct GpuCompileOptions {
  GpuStrategy strategy = GpuStrategy::Auto;
  uint64_t hash_capacity = 0;  // > 0: start the Hash strategy at this capacity (tests)
  DeviceLimits limits;
  std::string arch = "sm_90";
};

struct GpuCompilation {
  GpuPlan plan;
  GpuProgram program;
  double codegen_ms = 0;
  std::shared_ptr<const cuda::CompiledKernel> binary;
  bool from_memory_cache = false;
};

GpuPlan plan_for(const BoundSelect& query, const std::vector<ColumnStats>& stats, uint64_t rows,
                 const GpuCompileOptions& options);

// Generates and compiles `plan`. Compiled binaries are kept in memory by source text, so
// a query run again (or rerun after a table grows) skips NVRTC.
GpuCompilation compile_plan(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                            const GpuPlan& plan, const std::string& arch);

}  // namespace tally
