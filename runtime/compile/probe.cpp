#include "runtime/compile/probe.h"

#include <fmt/format.h>

#include "compiler/common/error.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/cuda/device.h"

namespace tally::cuda {
namespace {

std::string version_text(int version) {
  return fmt::format("{}.{}", version / 1000, version % 1000 / 10);
}

std::string describe_nvrtc() {
  try {
    return fmt::format("NVRTC {}\n", version_text(nvrtc_version()));
  } catch (const Error& e) {
    return fmt::format("NVRTC not available: {}\n", e.what());
  }
}

std::string describe_driver_and_devices() {
  try {
    std::string out = fmt::format("CUDA driver {}\n", version_text(driver_version()));
    const int count = device_count();
    if (count == 0) out += "no CUDA device found; run with --device cpu\n";
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      out += read_profile(ordinal).describe() + "\n";
    }
    return out;
  } catch (const Error& e) {
    return fmt::format("CUDA not available: {}\n", e.what());
  }
}

}  // namespace

std::string describe_devices() {
  try {
    return describe_driver_and_devices() + describe_nvrtc();
  } catch (const std::exception& e) {
    return fmt::format("CUDA probe failed: {}\n", e.what());
  }
}

}  // namespace tally::cuda
