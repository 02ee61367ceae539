// A description of the CUDA setup, for diagnostics: driver and NVRTC versions and each
// device's profile, or why there is none. Never throws.
#pragma once

#include <string>

namespace tally::cuda {

std::string describe_devices();

}  // namespace tally::cuda
