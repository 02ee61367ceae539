// The GPU engine: runs a BoundSelect's aggregation on the GPU with generated kernels
// (Init, Scan, Finalizer), growing and rerunning when a hash table fills, and finishing
// HAVING, the SELECT expressions and ORDER BY on the host with the code the CPU engine
// uses (runtime/result/result_builder.h). Holds the device, its memory pool and the columns
// already uploaded, so repeated queries over one table upload it once.
#pragma once

#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/compile/gpu_compile.h"
#include "runtime/compile/kernel_tiers.h"
#include "runtime/cpu/partial_groups.h"
#include "runtime/cuda/device.h"
#include "runtime/result/result.h"

namespace tally {

class RowQueue;

// Where the columns a query reads live while it runs.
enum class Placement : uint8_t {
  Auto,    // Host when the query's columns take more than half the device memory budget
  Device,  // uploaded once and kept for later queries (least recently used evicted)
  Host,    // pinned host memory, streamed to the GPU in batches by every query
};

// "auto", "device" or "host"; throws Error(Unsupported) naming the choices otherwise.
Placement placement_from_name(const std::string& name);

// The interpreted tier (runtime/gpu/interpreted_scan.h): a statement whose kernels no cache
// holds runs on the precompiled interpreter while they compile in the background.
enum class InterpretedTier : uint8_t {
  Off,
  WhenReady,  // where the interpreter takes the statement and its module is loaded
  Always,     // wherever it takes the statement, waiting for its module (tests)
};

struct GpuRunOptions {
  GpuStrategy strategy = GpuStrategy::Auto;
  uint64_t hash_capacity = 0;        // > 0: first Hash attempt at this capacity (tests of growth)
  GpuPlanCache* plans = nullptr;     // a prepared statement's: skips codegen for a known plan
  uint64_t device_memory_limit = 0;  // > 0: the most device memory the engine may hold
  // > 0: plan as if L2 held this many bytes (compiler/plan/l2_slices.h): small to make tests
  // slice small tables, UINT64_MAX to compare a Direct plan in one pass with its slices.
  uint64_t plan_l2_bytes = 0;
  Placement placement = Placement::Auto;
  uint64_t batch_rows = 0;  // > 0: streamed batches of this many rows (rounded up to 1024)
  // A streamed part takes its batches from this queue, shared with the CPU engine
  // (runtime/gpu/coprocess.h), instead of its whole row range.
  RowQueue* row_queue = nullptr;
  // Asked before each compile and each launch of kernels (grow-and-rerun included): a
  // kernel in flight runs to its end, the next one is not started.
  std::function<bool()> cancelled = {};
  // Quick kernels first, the unrolled ones in the background (runtime/compile/kernel_tiers.h).
  KernelTierChoice kernel_tiers = {};
  InterpretedTier interpreted = InterpretedTier::Off;
  // GpuRunReport::plan and ::source filled in (off where nobody reads them: a repeated small
  // query spent microseconds spelling the plan and copying the generated CUDA).
  bool describe = true;
};

struct GpuRunReport {
  std::string plan;    // the final plan, after any grow-and-rerun (GpuRunOptions::describe)
  std::string source;  // the generated CUDA of the final attempt (GpuRunOptions::describe)
  int attempts = 0;    // 1 + reruns
  std::string reruns;  // why each rerun ran, "; "-separated (add_rerun)
  double plan_ms = 0, codegen_ms = 0, nvrtc_ms = 0, upload_ms = 0, init_ms = 0, scan_ms = 0,
         finalize_ms = 0, download_ms = 0;
  double finish_ms = 0;       // on the host: HAVING, outputs, DISTINCT, ORDER BY, LIMIT
  uint64_t column_bytes = 0;  // column bytes this run copied to the device (0: all resident)
  // The columns were copied while the kernels compiled (upload_ms counts that copy);
  // upload_wait_ms is how long the run waited for it after the compile.
  bool upload_ahead = false;
  double upload_wait_ms = 0;
  bool init_in_scan = false;  // the scan kernel set the states itself (init_ms stays 0)
  // The Finalizer ran as the Scan's dependent launch: scan_ms covers both kernels and
  // finalize_ms stays 0.
  bool dependent_finalize = false;
  // "device", or "host memory, streamed: B batches of R rows on S streams"
  std::string placement = "device";
  BinarySource binary_source = BinarySource::Nvrtc;  // of the final attempt
  double disk_load_ms = 0;
  bool quick_kernels = false;  // the final attempt ran the quick Scan (GpuCompilation::quick)
  bool interpreted = false;    // the interpreted tier ran it (runtime/gpu/interpreted_scan.h)
  // How long it waited for the interpreter's module (compiled or loaded on another thread).
  double module_wait_ms = 0;
  std::string not_interpreted;  // why the interpreted tier did not, where it was asked to
};

// Adds why a rerun ran to GpuRunReport::reruns.
inline void add_rerun(std::string& reruns, std::string_view why) {
  if (!reruns.empty()) reruns += "; ";
  reruns += why;
}

// What the planner needs to know of a device, from its profile (GpuEngine::limits).
DeviceLimits device_limits(const cuda::DeviceProfile& profile);

// A part's kernels queued on its GPU (GpuEngine::start_part), waited for by
// GpuEngine::finish_part. Holds the engine until then; dropped unfinished, it waits for the
// kernels before their buffers go back to the pool.
class GpuPartRun {
 public:
  struct State;
  explicit GpuPartRun(std::unique_ptr<State> state);
  GpuPartRun(GpuPartRun&&) noexcept;
  GpuPartRun& operator=(GpuPartRun&&) noexcept;
  ~GpuPartRun();

 private:
  friend class GpuEngine;
  std::unique_ptr<State> state_;
};

class GpuEngine {
 public:
  // Opens device `ordinal`; throws Error(Device) when there is none.
  explicit GpuEngine(int ordinal = 0);
  ~GpuEngine();

  Result run(const BoundSelect& query, const Table& table, const std::vector<Value>& parameters,
             std::shared_ptr<StringHeap> strings, const GpuRunOptions& options,
             GpuRunReport* report = nullptr);

  // One part of a table split across engines (several GPUs, or the GPU beside the CPU
  // engine): rows [first_row, end_row) (first_row a multiple of 1024) to the query's states
  // per group, which combine exactly with the other parts' (runtime/cpu/partial_groups.h). The
  // plan is the whole table's, so every part runs the same kernels; the part's columns stay
  // resident, or stream from host memory under Placement::Host. Throws Error(Unsupported)
  // where the states do not combine (compiler/plan/partial_states.h).
  PartialGroups run_part(const BoundSelect& query, const Table& table, uint64_t first_row,
                         uint64_t end_row, const std::vector<Value>& parameters,
                         std::shared_ptr<StringHeap> strings, const GpuRunOptions& options,
                         GpuRunReport* report = nullptr);

  // run_part in two steps, so that one thread keeps several GPUs busy: start_part queues a
  // resident part's kernels and returns (a streamed part's batches are all queued first),
  // finish_part waits for them, reruns a hash table that filled up, and downloads the
  // states. `query`, `table`, `parameters` and `report` must outlive the GpuPartRun.
  // `planned`: another part of the same query, whose plan this part takes when both GPUs
  // are of one kind (planning once for all parts).
  GpuPartRun start_part(const BoundSelect& query, const Table& table, uint64_t first_row,
                        uint64_t end_row, const std::vector<Value>& parameters,
                        std::shared_ptr<StringHeap> strings, const GpuRunOptions& options,
                        GpuRunReport* report = nullptr, const GpuPartRun* planned = nullptr);
  PartialGroups finish_part(GpuPartRun& run);

  // The plan run() starts from for these inputs (its first attempt, before any rerun), and
  // whether the columns stream from host memory: what adaptive compilation looks up in the
  // kernel caches (runtime/session/adaptive_compile.h). Plans only: no compile, no upload.
  struct FirstPlan {
    GpuPlan plan;
    bool on_host = false;
  };
  FirstPlan first_plan(const BoundSelect& query, const Table& table,
                       const std::vector<ColumnStats>& stats, const std::vector<Value>& parameters,
                       const GpuRunOptions& options);

  std::string device_name() const;

  // Loads the interpreted tier's module (runtime/gpu/interpreted_scan.h) from the disk cache,
  // or starts its compile, and the uploads' transposition kernel (device_transpose.h), so that
  // a session's first statement finds them; the engine's constructor has opened the device. For a
  // thread of its own while a session loads its data; never throws (the first statement reports
  // what is wrong).
  // Whether the interpreter's module is loaded; false while it compiles (no cache held it).
  bool warm_up() noexcept;
  bool interpreter_loaded() const;  // whether the interpreter's module is loaded

  // What stays on the device between queries: uploaded columns and loaded modules.
  struct Residency {
    size_t columns = 0;
    size_t modules = 0;
  };
  Residency residency() const;
  // Device memory the engine's pool holds: in use (columns, tables) plus cached for reuse.
  uint64_t memory_held() const;
  uint64_t memory_cached() const;
  std::string arch() const;  // the NVRTC target of the device, e.g. "sm_90"
  DeviceLimits limits() const;

  struct Impl;  // device, memory pool, uploaded columns, loaded modules

 private:
  GpuCompileOptions compile_options(const GpuRunOptions& options,
                                    const std::vector<Value>& parameters, const Table& table) const;
  // first_plan with the engine's mutex held and the query's memory limit set (run()).
  FirstPlan plan_first_attempt(const BoundSelect& query, const Table& table,
                               const std::vector<ColumnStats>& stats,
                               const std::vector<Value>& parameters, const GpuRunOptions& options);

  // The statement on the interpreted tier (GpuRunOptions::interpreted), or nullopt; `found`:
  // the statement's own kernels where the caches hold them.
  std::optional<Result> run_on_interpreter(const BoundSelect& query, const Table& table,
                                           const std::vector<ColumnStats>& stats,
                                           const GpuPlan& plan,
                                           const std::vector<Value>& parameters,
                                           const std::shared_ptr<StringHeap>& strings,
                                           const GpuRunOptions& options,
                                           std::future<double>& columns_ahead, GpuRunReport& report,
                                           std::optional<GpuCompilation>& found);

  std::unique_ptr<Impl> impl_;
};

}  // namespace tally
