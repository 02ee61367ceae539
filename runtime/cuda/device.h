// A CUDA device: its primary context, made current in the calling thread, and its
// profile — the hardware figures the planner sizes tables, grids and shared-memory
// budgets from: parameters come from the GPU in hand.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "compiler/plan/gpu_target.h"
#include "runtime/cuda/handles.h"

namespace tally::cuda {

// True when the driver loads, starts, and sees at least one device. Never throws: for
// --device auto and for tests that skip without a GPU.
bool gpu_available() noexcept;

// Devices the driver sees. Throws Error(Device) when the driver cannot be loaded.
int device_count();

// The driver's CUDA version as major * 1000 + minor * 10 (13.0 -> 13000).
int driver_version();

struct DeviceProfile {
  int ordinal = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  uint64_t l2_bytes = 0;
  uint64_t shared_per_sm = 0;
  uint64_t shared_per_block = 0;        // without opting in (48 KiB)
  uint64_t shared_per_block_optin = 0;  // after cuFuncSetAttribute (227 KiB on sm_90)
  int registers_per_sm = 0;
  int registers_per_block = 0;
  int max_threads_per_sm = 0;
  int max_threads_per_block = 0;
  int warp_size = 0;
  uint64_t total_memory = 0;
  int memory_clock_khz = 0;  // 0 where the driver does not report it
  int memory_bus_bits = 0;

  // "sm_90": the NVRTC target for this device.
  std::string arch() const;
  ComputeCapability capability() const { return {cc_major, cc_minor}; }
  // What the planner and NVRTC are given for this device: arch, capability, limits.
  GpuTarget target() const;
  // Theoretical DRAM bandwidth (double data rate) in GB/s; 0 when clock or width is unknown.
  double peak_bandwidth_gbs() const;
  // One line: name, arch, SMs, L2, shared memory, registers, threads, memory.
  std::string describe() const;
};

// Reads the profile of device `ordinal` (no context needed).
DeviceProfile read_profile(int ordinal);

// Throws Error(Device) "unsupported GPU: <name> has compute capability 8.0; ..." when
// tally's kernels cannot run on the device (below kMinComputeCapability).
void require_supported(const DeviceProfile& profile);

// Why the GPU engine cannot run here ("no GPU is available", or why device 0 is
// unsupported), or nullopt when it can. Never throws: for --device auto.
std::optional<std::string> why_gpu_unusable();

// The target of device 0 when the GPU engine can run on it, else default_gpu_target():
// what to compile for so that this machine's later runs find the kernels.
GpuTarget gpu_target_in_hand();

// The error that lost the GPU context in this process (an illegal address in a kernel, an
// ECC error), if one did. CUDA cannot recover from such errors in-process (its
// documentation: the process must be restarted), so the GPU engine refuses work after one.
std::optional<std::string> lost_context();

struct MemoryInfo {
  uint64_t free_bytes = 0;
  uint64_t total_bytes = 0;
};

// Holds a reference on the device's primary context for its lifetime and makes it current
// in the constructing thread. Device memory, modules and streams belong to that context:
// release them before the Device. Move-only.
class Device {
 public:
  explicit Device(int ordinal = 0);
  // Device(ordinal) after require_supported: what the GPU engine opens.
  static Device supported(int ordinal);
  ~Device();
  Device(Device&& other) noexcept;
  Device& operator=(Device&& other) noexcept;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceProfile& profile() const { return profile_; }
  int ordinal() const { return profile_.ordinal; }
  CUctx_st* context() const { return context_; }

  // Makes the context current in the calling thread (each thread that launches needs it).
  void make_current() const;
  // Waits for all work on the device; surfaces asynchronous kernel faults as Error(Device).
  void synchronize() const;
  MemoryInfo memory_info() const;

 private:
  void release() noexcept;

  CUctx_st* context_ = nullptr;
  int device_ = -1;  // the driver's CUdevice handle
  DeviceProfile profile_;
};

}  // namespace tally::cuda
