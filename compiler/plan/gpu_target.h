// The GPU that a query is planned and compiled for: the NVRTC architecture, the compute
// capability, and the limits the planner sizes grids and tables from. Plain data (compiler/
// never calls CUDA): the runtime's device profile (runtime/cuda/device.h) makes the target of
// the GPU in hand, and default_gpu_target() stands in where there is none.
#pragma once

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tally {

struct StrategyRates;  // compiler/plan/strategy_rates.h

struct ComputeCapability {
  int major = 0;
  int minor = 0;
  friend constexpr auto operator<=>(const ComputeCapability&, const ComputeCapability&) = default;
};

// The oldest GPU tally's kernels run on: the device library (templates/) uses sm_90's
// griddepcontrol (programmatic dependent launch) and 16-byte compare-and-swap.
inline constexpr ComputeCapability kMinComputeCapability{9, 0};

// The GPU, as far as the planner cares (the runtime fills it from the device profile). The
// defaults are the figures of default_gpu_target()'s H100 (SXM, 80 GB), written only here.
struct DeviceLimits {
  int sm_count = 132;
  uint64_t shared_per_sm = 228 * 1024;
  uint64_t shared_per_block_optin = 227 * 1024;  // a block's most, after opting in
  int max_threads_per_sm = 2048;
  int registers_per_sm = 65536;
  uint64_t l2_bytes = 50ull << 20;
  // Measured rates of the grouping strategies on this GPU (`tally calibrate`); null: the
  // planner's built-in rules choose.
  std::shared_ptr<const StrategyRates> rates;

  bool operator==(const DeviceLimits&) const = default;  // the same rates object, not equal rates
};

struct GpuTarget {
  std::string arch;  // the NVRTC target: "sm_90" (a cubin) or "compute_90" (PTX)
  ComputeCapability capability;
  DeviceLimits limits;
};

// What tally plans and compiles for when no usable GPU is in hand (`tally compile`, `tally
// prepare` on a machine without one, the NVRTC tests): an H100, sm_90, with DeviceLimits'
// defaults. The one definition of that default.
GpuTarget default_gpu_target();

// Why a GPU cannot run tally's kernels ("unsupported GPU: <name> has compute capability 8.0;
// ..."), or nullopt when it can.
std::optional<std::string> unsupported_gpu(const std::string& name, ComputeCapability capability);

}  // namespace tally
