// What the GPU engine would run on here: whether it can, and if not why; the device's
// name, compute capability and memory. Never throws: for choosing a device before
// opening an Engine, and for reporting.
#pragma once

#include <cstdint>
#include <string>

namespace tally {

struct GpuInfo {
  bool usable = false;
  std::string reason;  // why the GPU engine cannot run here; empty when usable
  int device_count = 0;
  int driver_version = 0;  // CUDA version as major * 1000 + minor * 10; 0: no driver
  // Device 0, the one the engine uses (empty and zero when there is none):
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  uint64_t memory_bytes = 0;  // total device memory
};

GpuInfo gpu_info();

}  // namespace tally
