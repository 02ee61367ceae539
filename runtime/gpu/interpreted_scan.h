// The interpreted tier on the device: one precompiled module (templates/tally_interp_kernel.cuh)
// runs a statement's row program (compiler/codegen/row_program.h) while NVRTC compiles the
// statement's own kernels in the background. NVRTC takes 100 ms to 3 s for a new statement
// (bench/RESULTS.md, compile_latency); the module is compiled once per machine (the disk
// cache keeps it) and loaded once per process. The groups' state cells come back and finish
// on the host (runtime/gpu/interpreted_finish.h); a large domain's only where few enough or
// selected on the device (runtime/gpu/interpreted_top.h).
#pragma once

#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "compiler/codegen/row_program.h"
#include "runtime/cuda/device.h"
#include "runtime/cuda/module.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/gpu/interpreted_finish.h"

namespace tally {

// The module, per engine. Never throws: a compile that failed is kept in error() and the
// statements take their own kernels.
class InterpreterKernels {
 public:
  InterpreterKernels();
  ~InterpreterKernels();

  // Whether the kernels are loaded on `device` (current on the calling thread): from this
  // process's memory or the disk cache at once; otherwise the first call starts an NVRTC
  // compile on a thread of its own and returns false until it has finished (`wait`: blocks
  // for it instead). Safe from several threads (GpuEngine::warm_up calls it from its own).
  bool ready(const cuda::Device& device, bool wait);
  const std::string& error() const { return error_; }
  bool loaded() const;  // whether a ready() has loaded the kernels
  const cuda::Kernel& init() const;
  const cuda::Kernel& scan() const;
  // The large result's selection (templates/tally_interp_top.cuh).
  const cuda::Kernel& rank() const;
  const cuda::Kernel& rank_histogram() const;
  const cuda::Kernel& gather() const;
  uint32_t grid() const;  // the Scan's blocks: enough to fill every SM

 private:
  struct Loaded;
  std::future<std::shared_ptr<const cuda::CompiledKernel>> compiling_;
  std::unique_ptr<Loaded> loaded_;
  std::string error_;
  mutable std::mutex mutex_;
};

// The device source of the interpreter's module.
std::string interpreter_source();

// The statement's row program's inputs: its scan columns' dictionaries from `table`, and
// `strings`, the heap its VARCHAR parameters' ids are of.
RowProgramInputs row_program_inputs(const BoundSelect& query, const Table& table,
                                    const std::vector<ColumnStats>& stats,
                                    const std::vector<Value>& parameters, StringHeap* strings);

// For --explain: a line saying whether the interpreted tier takes the statement (and the
// program's size) or why it declines it.
std::string describe_interpreted(const BoundSelect& query, const Table& table,
                                 const std::vector<ColumnStats>& stats,
                                 const std::vector<Value>& parameters, StringHeap& strings);

// Runs `query` on the interpreter: the result, or nullopt where the statement's row program
// declines it (`why` says why) or the kernels are not ready. `stats` are the scan columns'.
// `columns_ahead` (GpuEngine::Impl::upload_ahead's copy, may be empty) is waited for once the
// interpreter takes the statement, and left running otherwise. `first_capacity` > 0: the
// first table and DISTINCT set hold this many entries (GpuRunOptions::hash_capacity).
std::optional<Result> run_interpreted(GpuEngine::Impl& engine, const BoundSelect& query,
                                      const Table& table, const std::vector<ColumnStats>& stats,
                                      const std::vector<Value>& parameters,
                                      std::shared_ptr<StringHeap> strings, bool wait,
                                      uint64_t first_capacity, std::future<double>& columns_ahead,
                                      GpuRunReport& report, std::string* why);

}  // namespace tally
