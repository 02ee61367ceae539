#include "compiler/plan/gpu_target.h"

#include <fmt/format.h>

namespace tally {

GpuTarget default_gpu_target() { return GpuTarget{"sm_90", {9, 0}, DeviceLimits{}}; }

std::optional<std::string> unsupported_gpu(const std::string& name, ComputeCapability capability) {
  if (capability >= kMinComputeCapability) return std::nullopt;
  return fmt::format(
      "unsupported GPU: {} has compute capability {}.{}; tally's kernels need {}.{} (Hopper) or "
      "newer",
      name, capability.major, capability.minor, kMinComputeCapability.major,
      kMinComputeCapability.minor);
}

}  // namespace tally
