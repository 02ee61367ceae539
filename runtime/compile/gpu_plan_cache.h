// A prepared statement's memo of generated programs and their binaries, keyed by what code
// generation reads: the GPU plan, the scan columns' statistics and the target arch. The
// plan itself is still made at each execution (it depends on the data); when it comes out
// as before, the execution skips code generation and every binary cache below it.
// Thread-safe: several threads may execute one prepared statement at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/codegen/gpu_program.h"
#include "compiler/plan/lifted_constants.h"
#include "runtime/compile/nvrtc.h"

namespace tally {

struct CachedGpuProgram {
  std::shared_ptr<const GpuProgram> program;
  std::shared_ptr<const cuda::CompiledKernel> binary;
  // Set while `program` is the quick Scan's (runtime/compile/kernel_tiers.h): the unrolled
  // program that replaces it once its binary has compiled.
  std::shared_ptr<const GpuProgram> unrolled;
};

// Everything generate_cuda reads of `plan` and `stats` (the plan's `reason` and `considered`
// aside), and the arch: equal fingerprints generate the same source and compile to the same binary.
std::string plan_fingerprint(const GpuPlan& plan, const std::vector<ColumnStats>& stats,
                             const std::string& arch);

class GpuPlanCache {
 public:
  // Plans per statement are few (one per data shape, plus hash-table growth); beyond this
  // the oldest entries go, so a statement over ever-changing data does not grow without end.
  static constexpr size_t kMaxEntries = 16;

  std::shared_ptr<const CachedGpuProgram> find(const std::string& fingerprint) const;
  // Whether an entry is held, without counting a hit or a miss (a look before deciding).
  bool contains(const std::string& fingerprint) const;
  // Keeps `entry` unless another thread stored one first; returns the one kept.
  std::shared_ptr<const CachedGpuProgram> insert(const std::string& fingerprint,
                                                 std::shared_ptr<const CachedGpuProgram> entry);

  // Replaces the quick entry under `fingerprint` with `entry` (CachedGpuProgram::unrolled);
  // an entry that is not quick, or none, stays as it is.
  void upgrade(const std::string& fingerprint, std::shared_ptr<const CachedGpuProgram> entry);

  // What a plan is made from: plan_gpu is a function of these,
  // so a repeated statement over unchanged data gets its last plan back without planning it
  // again (23-31 us of a repeated TPC-H Q1 on an H100 host, bench/RESULTS.md).
  struct PlanInputs {
    uint64_t rows = 0;
    // The parameters' values as their bits (a VARCHAR one is an id of its execution's
    // heap: statements with one take no remembered plan).
    std::vector<std::pair<bool, int128>> parameters;
    std::vector<ColumnStats> stats;
    GpuStrategy strategy = GpuStrategy::Auto;
    uint64_t hash_capacity = 0;
    DeviceLimits limits;
    std::string arch;
    bool operator==(const PlanInputs&) const = default;
  };
  std::optional<GpuPlan> remembered_plan(const PlanInputs& inputs) const;
  void remember_plan(PlanInputs inputs, GpuPlan plan);

  // The statement's compared constants as parameters (compiler/plan/lifted_constants.h), made
  // from its bound query once; null where it has none. A cache serves one statement, so
  // `query` is the same at every call.
  std::shared_ptr<const LiftedConstants> lifted_constants(const BoundSelect& query);

  size_t size() const;
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const CachedGpuProgram>> entries_;
  std::deque<std::string> order_;                            // oldest insertion first
  std::optional<std::pair<PlanInputs, GpuPlan>> last_plan_;  // remember_plan's
  bool lifted_made_ = false;
  std::shared_ptr<const LiftedConstants> lifted_;
  mutable std::atomic<uint64_t> hits_{0}, misses_{0};
};

}  // namespace tally
