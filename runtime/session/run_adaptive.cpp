// Adaptive compilation (runtime/session/adaptive_compile.h): the look into the kernel caches
// for the plan a GPU run would start from, and, when none holds its kernels, their compile
// queued and the statement left to the CPU engine.
#include <fmt/format.h>

#include <chrono>

#include "compiler/common/elapsed.h"
#include "runtime/compile/background_compiler.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/database.h"
#include "runtime/storage/scan_stats.h"

namespace tally {

namespace {

// The first attempt's plan and program, and what looking them up cost.
struct KernelLookup {
  GpuPlan plan;
  GpuProgram program;
  double plan_ms = 0, codegen_ms = 0, lookup_ms = 0;
};

std::string adaptive_timing(const KernelLookup& k) {
  return fmt::format(
      "not run: its kernels compile in the background while the CPU engine runs the statement; "
      "plan {:.2f} ms, codegen {:.2f} ms, cache lookup {:.2f} ms",
      k.plan_ms, k.codegen_ms, k.lookup_ms);
}

}  // namespace

bool Database::compiles_in_background(GpuEngine& engine, const BoundSelect& query,
                                      const Table& input, const std::vector<Value>& parameters,
                                      const GpuRunOptions& gpu_options, const ExecOptions& options,
                                      bool gpu_usable, StatementOutcome& outcome) {
  AdaptiveCompileFacts facts;
  facts.enabled = options.adaptive_compile;
  facts.device_auto = options.device == DeviceChoice::Auto;
  facts.compile_only = options.compile_only;
  facts.gpu_usable = gpu_usable;
  facts.rows = input.rows();
  facts.max_rows = options.adaptive_compile_rows;
  KernelLookup k;
  const std::string arch = engine.arch();
  auto kernels = [&] {
    auto start = std::chrono::steady_clock::now();
    const std::vector<ColumnStats> stats = scan_stats(query, input);
    k.plan = engine.first_plan(query, input, stats, parameters, gpu_options).plan;
    k.plan_ms = ms_since(start);
    start = std::chrono::steady_clock::now();
    k.program = generate_cuda(query, k.plan, stats);
    k.codegen_ms = ms_since(start);
    start = std::chrono::steady_clock::now();
    const bool cached = binary_cached(k.plan, stats, k.program, arch, gpu_options.plans);
    k.lookup_ms = ms_since(start);
    if (cached) return KernelState::Cached;
    return compiler_->failed(k.program.source, arch) ? KernelState::FailedInBackground
                                                     : KernelState::Missing;
  };
  if (choose_adaptive_compile(facts, kernels) == AdaptiveChoice::Gpu) return false;
  const bool queued = compiler_->enqueue(k.program.source, arch);
  outcome.notice = adaptive_compile_notice(facts.rows, queued);
  outcome.timings.gpu = adaptive_timing(k);
  if (options.explain) {
    outcome.explain += fmt::format(
        "adaptive compile: the CPU engine ran the statement ({} rows, at most {}) while the "
        "kernels of this GPU plan compile in the background\n{}",
        facts.rows, facts.max_rows, describe_plan(k.plan));
  }
  if (options.emit_cuda) outcome.cuda = k.program.source;
  return true;
}

}  // namespace tally
