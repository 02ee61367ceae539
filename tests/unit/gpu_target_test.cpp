// The GPU target: the one default for compiling without a GPU, a device profile's own
// target, and the check that refuses GPUs older than tally's kernels need (no GPU needed).
#include "compiler/plan/gpu_target.h"

#include <doctest/doctest.h>

#include "compiler/common/error.h"
#include "runtime/cuda/device.h"

namespace tally {
namespace {

TEST_CASE("gpu target: the default is an sm_90 H100 - which the check accepts") {
  GpuTarget target = default_gpu_target();
  CHECK(target.arch == "sm_90");
  CHECK(target.capability == ComputeCapability{9, 0});
  CHECK(target.limits.sm_count == 132);
  CHECK(target.limits.shared_per_sm == 228 * 1024);
  CHECK(kMinComputeCapability == ComputeCapability{9, 0});
  CHECK_FALSE(unsupported_gpu("default", target.capability));
}

TEST_CASE("gpu target: compute capability 9.0 and newer run tally's kernels - older do not") {
  CHECK_FALSE(unsupported_gpu("NVIDIA H100 80GB HBM3", {9, 0}));
  CHECK_FALSE(unsupported_gpu("NVIDIA B200", {10, 0}));
  CHECK_FALSE(unsupported_gpu("NVIDIA RTX PRO 6000", {12, 0}));
  CHECK(unsupported_gpu("NVIDIA L4", {8, 9}));
  CHECK(unsupported_gpu("Tesla V100-SXM2-32GB", {7, 0}));
  std::optional<std::string> a100 = unsupported_gpu("NVIDIA A100-SXM4-80GB", {8, 0});
  REQUIRE(a100);
  CHECK(*a100 ==
        "unsupported GPU: NVIDIA A100-SXM4-80GB has compute capability 8.0; tally's kernels "
        "need 9.0 (Hopper) or newer");
}

cuda::DeviceProfile profile(const char* name, int major, int minor) {
  cuda::DeviceProfile p;
  p.name = name;
  p.cc_major = major;
  p.cc_minor = minor;
  p.sm_count = 108;
  p.shared_per_sm = 164 * 1024;
  p.max_threads_per_sm = 2048;
  p.registers_per_sm = 65536;
  p.l2_bytes = 40ull << 20;
  return p;
}

TEST_CASE("gpu target: a device profile's target - and an old device as Error(Device)") {
  GpuTarget target = profile("NVIDIA A100-SXM4-80GB", 8, 0).target();
  CHECK(target.arch == "sm_80");
  CHECK(target.capability == ComputeCapability{8, 0});
  CHECK(target.limits.sm_count == 108);
  CHECK(target.limits.shared_per_sm == 164 * 1024);
  CHECK(target.limits.l2_bytes == 40ull << 20);
  try {
    cuda::require_supported(profile("NVIDIA A100-SXM4-80GB", 8, 0));
    FAIL("an sm_80 device was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Device);
    CHECK(std::string(e.what()) ==
          "unsupported GPU: NVIDIA A100-SXM4-80GB has compute capability 8.0; tally's kernels "
          "need 9.0 (Hopper) or newer");
  }
  CHECK_NOTHROW(cuda::require_supported(profile("NVIDIA H200", 9, 0)));
}

TEST_CASE("gpu target: without a usable GPU - compile for the default target") {
  if (cuda::why_gpu_unusable()) CHECK(cuda::gpu_target_in_hand().arch == "sm_90");
  if (!cuda::gpu_available()) CHECK(cuda::why_gpu_unusable() == "no GPU is available");
}

}  // namespace
}  // namespace tally
