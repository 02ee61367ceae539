#include "runtime/session/adaptive_compile.h"

#include <fmt/format.h>

namespace tally {

AdaptiveChoice choose_adaptive_compile(const AdaptiveCompileFacts& facts,
                                       const std::function<KernelState()>& kernels) {
  const bool allowed = facts.enabled && facts.device_auto && !facts.compile_only &&
                       facts.gpu_usable && facts.rows <= facts.max_rows;
  if (!allowed) return AdaptiveChoice::Gpu;
  return kernels() == KernelState::Missing ? AdaptiveChoice::CpuWhileCompiling
                                           : AdaptiveChoice::Gpu;
}

std::string adaptive_compile_notice(uint64_t rows, bool queued) {
  return fmt::format(
      "ran on the CPU engine while its GPU kernels {} in the background ({} rows); a later run "
      "uses the GPU once they are compiled",
      queued ? "compile" : "are still compiling", rows);
}

}  // namespace tally
