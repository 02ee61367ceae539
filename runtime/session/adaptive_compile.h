// Adaptive compilation: under --device auto, a statement whose kernels no cache holds and
// whose table is small runs on the CPU engine now, while its kernels compile in the
// background (runtime/compile/background_compiler.h) for its next run. NVRTC takes 100 ms to
// 3 s for a new statement; the CPU engine answers a small table in a few milliseconds.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace tally {

// The default most rows: the CPU engine's vector path reads 250-600 M rows/s with few groups
// and 22-67 M rows/s with 10^5-10^7 groups on a 16-core host (bench/RESULTS.md,
// "cpu_engine"), so 2 M rows take 3-8 ms, at worst about 90 ms: under the 100 ms and more
// of a typical new compile, and far under the 0.4-1 s of a process's first.
inline constexpr uint64_t kAdaptiveCompileRows = 2'000'000;

// What the choice reads, all known before any code is generated.
struct AdaptiveCompileFacts {
  bool enabled = false;       // SET adaptive_compile (ExecOptions::adaptive_compile)
  bool device_auto = false;   // --device auto: never under gpu, which asks for the GPU
  bool compile_only = false;  // tally compile and prepare compile ahead; nothing to hide
  bool gpu_usable = false;
  uint64_t rows = 0;  // of the input table
  uint64_t max_rows = kAdaptiveCompileRows;
};

// Where the statement's kernels are, as the caches tell without compiling.
enum class KernelState {
  Cached,              // a cache holds them: the GPU runs the statement now
  Missing,             // none does: they must be compiled
  FailedInBackground,  // a background compile failed: compile in the foreground, which
                       // reports the error
};

enum class AdaptiveChoice { Gpu, CpuWhileCompiling };

// CpuWhileCompiling when every fact allows it and `kernels` says Missing. `kernels` (plan,
// code generation and cache lookups: a millisecond or so) is called only when the facts
// allow it.
AdaptiveChoice choose_adaptive_compile(const AdaptiveCompileFacts& facts,
                                       const std::function<KernelState()>& kernels);

// The statement's notice: it ran on the CPU engine over `rows` rows while its kernels
// compile (`queued`: this statement queued them; else an earlier one did).
std::string adaptive_compile_notice(uint64_t rows, bool queued);

}  // namespace tally
