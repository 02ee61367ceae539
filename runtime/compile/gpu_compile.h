// From a bound query and its table to a compiled GPU program, without touching a GPU:
// column statistics -> plan -> generated CUDA -> NVRTC cubin. `tally compile` and the CI
// tests stop here; the GPU engine goes on to launch.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/codegen/gpu_program.h"
#include "runtime/compile/gpu_plan_cache.h"
#include "runtime/compile/kernel_cache.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/storage/scan_stats.h"
#include "runtime/storage/table.h"

namespace tally {

struct GpuCompileOptions {
  GpuStrategy strategy = GpuStrategy::Auto;
  uint64_t hash_capacity = 0;  // > 0: start the Hash strategy at this capacity (tests)
  DeviceLimits limits = default_gpu_target().limits;
  std::string arch = default_gpu_target().arch;
  // The values of `?` for the execution being planned, where known: keys over them (MOD(x, ?))
  // get bounded domains. Null: plan for any value.
  const std::vector<Value>* parameters = nullptr;
  // The table itself, where in hand: a large hash table is then sized from a sample of its
  // rows (runtime/compile/group_estimate.h) rather than from its row count.
  const Table* table = nullptr;
};

// Where a compiled binary came from: a prepared statement's plan cache (no code generation
// either), this process's memory, the disk cache (runtime/compile/kernel_cache.h), or a fresh
// NVRTC compile.
enum class BinarySource { Nvrtc, MemoryCache, DiskCache, PlanCache };

// "" for a fresh compile, else " (plan cache)", " (memory cache)" or " (disk cache, loaded
// in 0.12 ms)", to follow the NVRTC time in --timing lines.
std::string binary_source_note(BinarySource source, double disk_load_ms);

struct GpuCompilation {
  GpuPlan plan;
  // Shared with the plan cache: a repeated statement copied its generated CUDA (43 KB for
  // TPC-H Q1) at each execution.
  std::shared_ptr<const GpuProgram> program;
  double codegen_ms = 0;
  std::shared_ptr<const cuda::CompiledKernel> binary;  // compile_ms: of its NVRTC compile
  BinarySource source = BinarySource::Nvrtc;
  double disk_load_ms = 0;  // looking in the disk cache, hit or miss
  // The binary is the quick Scan's (GpuPlan::quick_scan; runtime/compile/kernel_tiers.h).
  bool quick = false;
};

GpuPlan plan_for(const BoundSelect& query, const std::vector<ColumnStats>& stats, uint64_t rows,
                 const GpuCompileOptions& options);

// Generates and compiles `plan`. Compiled binaries are kept in memory by source text, so
// a query run again (or rerun after a table grows) skips NVRTC; below that, the disk cache
// (configured by the environment, see KernelCacheConfig) lets a new process skip it too.
GpuCompilation compile_plan(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                            const GpuPlan& plan, const std::string& arch);

// compile_plan in two steps: generates `plan`'s program and looks for its binary in this
// process's memory and the disk cache, leaving `binary` null on a miss; then compiles a
// missing binary with NVRTC into both caches.
GpuCompilation find_compiled(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                             const GpuPlan& plan, const std::string& arch);
void compile_missing(GpuCompilation& c, const std::string& arch);

// This process's binary of `source` for `arch`, or null; never looks on disk or compiles.
std::shared_ptr<const cuda::CompiledKernel> binary_in_memory(const std::string& source,
                                                             const std::string& arch);

// The same, first looking in a prepared statement's plan cache (and filling it); `plans`
// null is the plain compile_plan. `query` must be the statement the cache belongs to.
GpuCompilation compile_plan(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                            const GpuPlan& plan, const std::string& arch, GpuPlanCache* plans);

// A plan-cache hit as a compilation. A quick entry (CachedGpuProgram::unrolled) gives way to
// its unrolled program once that binary is in this process's memory; until then `quick` is set.
GpuCompilation from_plan_cache(const CachedGpuProgram& hit, const std::string& fingerprint,
                               const GpuPlan& plan, const std::string& arch, GpuPlanCache& plans);

// Whether a cache already holds the binary of `program` (generated from `plan` and `stats`)
// for `arch`: the prepared statement's plan cache (`plans`, may be null), this process's
// memory, or the disk cache, where an entry is looked for but not loaded. Never compiles.
bool binary_cached(const GpuPlan& plan, const std::vector<ColumnStats>& stats,
                   const GpuProgram& program, const std::string& arch, const GpuPlanCache* plans);

// Whether this process's memory or the disk cache holds the binary of `source` for `arch`
// (a disk entry is looked for, not loaded). Never compiles.
bool source_cached(const std::string& source, const std::string& arch);

// Compiles `source` for `arch` into this process's memory and the disk cache, as compile_plan
// would, unless memory holds it already, and returns the binary memory holds: a compile ahead
// of the statement that needs it (runtime/compile/background_compiler.h), or a program of the
// runtime's own (runtime/gpu/device_transpose.h). Throws what compile_cuda throws; the disk
// cache's problems go to `warn`.
std::shared_ptr<const cuda::CompiledKernel> compile_into_caches(const std::string& source,
                                                                const std::string& arch,
                                                                const KernelCacheWarning& warn);

}  // namespace tally
