// A loaded GPU module (cubin or PTX from NVRTC or the kernel cache) and kernel launches.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "runtime/cuda/handles.h"
#include "runtime/cuda/stream.h"

namespace tally::cuda {

struct LaunchConfig {
  uint32_t grid = 1;          // blocks (1-D)
  uint32_t block = 256;       // threads per block
  uint32_t shared_bytes = 0;  // dynamic shared memory per block
  const Stream* stream = nullptr;
  // Launched as the programmatic dependent of the kernel before it in the stream (sm_90):
  // it may start before that kernel ends and must wait for it itself (griddepcontrol.wait,
  // templates/tally_dependent_launch.cuh).
  bool dependent = false;
};

struct KernelAttributes {
  int registers = 0;            // per thread
  int local_bytes = 0;          // spills and stack per thread
  int static_shared_bytes = 0;  // __shared__ arrays declared in the kernel
  int max_threads_per_block = 0;
};

// A kernel of a Module: valid while the Module lives. Cheap to copy.
class Kernel {
 public:
  Kernel(CUfunc_st* function, std::string name) : function_(function), name_(std::move(name)) {}
  CUfunc_st* handle() const { return function_; }
  const std::string& name() const { return name_; }
  KernelAttributes attributes() const;
  // Resident blocks per SM at this block size and dynamic shared memory (occupancy).
  int max_active_blocks_per_sm(uint32_t block, uint32_t shared_bytes) const;

 private:
  CUfunc_st* function_;
  std::string name_;
};

class Module {
 public:
  // A cubin, or PTX (NUL-terminated), as cuModuleLoadData takes it (CompiledKernel::image
  // from runtime/compile).
  explicit Module(const std::vector<char>& image);
  ~Module();
  Module(Module&& other) noexcept;
  Module& operator=(Module&& other) noexcept;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // An extern "C" __global__ function of the module; Error(Device) when absent. Looked up
  // once a name: a repeated statement asks for its kernels again at each execution.
  Kernel kernel(const std::string& name) const;

 private:
  struct Functions {
    std::mutex mutex;
    std::vector<std::pair<std::string, CUfunc_st*>> by_name;
  };
  void release() noexcept;
  CUmod_st* module_ = nullptr;
  std::unique_ptr<Functions> functions_;  // null once released or moved from
};

// Launches with `params` as cuLaunchKernel takes them (one pointer per argument). Raises
// the kernel's dynamic shared-memory limit first when the launch asks for more than the
// default 48 KiB. Faults inside the kernel surface at the next synchronisation.
void launch_kernel(const Kernel& kernel, const LaunchConfig& config, void** params);

// Launches with typed arguments: each must have exactly the layout of the kernel's
// parameter (DevicePtr or T* for pointers; for refs, host mirrors such as the tests' in
// tests/unit/support/device_refs.h).
template <class... Args>
void launch(const Kernel& kernel, const LaunchConfig& config, const Args&... args) {
  void* params[] = {const_cast<void*>(static_cast<const void*>(&args))..., nullptr};
  launch_kernel(kernel, config, params);
}

}  // namespace tally::cuda
