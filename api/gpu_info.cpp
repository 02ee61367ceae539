// tally::gpu_info: the driver's view of device 0, read without opening a context.
#include "tally/gpu_info.h"

#include <optional>

#include "runtime/cuda/device.h"
#include "tally/error.h"

namespace tally {

GpuInfo gpu_info() {
  GpuInfo info;
  std::optional<std::string> why = cuda::why_gpu_unusable();
  info.usable = !why;
  if (why) info.reason = *why;
  try {
    info.device_count = cuda::device_count();
    info.driver_version = cuda::driver_version();
    if (info.device_count > 0) {
      cuda::DeviceProfile profile = cuda::read_profile(0);
      info.name = profile.name;
      info.compute_major = profile.cc_major;
      info.compute_minor = profile.cc_minor;
      info.memory_bytes = profile.total_memory;
    }
  } catch (const Error&) {
    // No driver: the reason above says so; the figures stay zero.
  }
  return info;
}

}  // namespace tally
