#include "runtime/gpu/device_transpose.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "compiler/codegen/lane_transpose_kernel.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/compile/kernel_cache.h"

namespace tally {

namespace {

constexpr uint64_t kBlockRows = 1024;          // templates/tally_lane_transpose.cuh
constexpr uint32_t kResidentBlocksPerSm = 16;  // 128 threads and 8 KiB of shared memory each

bool host_transpose_asked() {
  const char* env = std::getenv("TALLY_HOST_TRANSPOSE");
  return env != nullptr && std::strcmp(env, "1") == 0;
}

}  // namespace

struct DeviceTranspose::Loaded {
  std::shared_ptr<const cuda::CompiledKernel> binary;
  cuda::Module module;
  cuda::Kernel kernel;
  cuda::Stream stream;
  uint32_t max_grid;

  Loaded(std::shared_ptr<const cuda::CompiledKernel> b, uint32_t sm_count)
      : binary(std::move(b)),
        module(binary->image),
        kernel(module.kernel(kLaneTransposeKernelName)),
        max_grid(std::max<uint32_t>(1, sm_count) * kResidentBlocksPerSm) {}
};

DeviceTranspose::DeviceTranspose() : enabled_(!host_transpose_asked()) {}

DeviceTranspose::~DeviceTranspose() = default;

bool DeviceTranspose::ready(const cuda::Device& device) {
  if (!enabled_) return false;
  std::lock_guard lock(mutex_);
  if (!tried_) {
    tried_ = true;
    try {
      loaded_ = std::make_unique<Loaded>(
          compile_into_caches(lane_transpose_source(), device.profile().target().arch,
                              warn_on_stderr),
          static_cast<uint32_t>(device.profile().sm_count));
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }
  return loaded_ != nullptr;
}

void DeviceTranspose::transpose(const cuda::DeviceBuffer& words, uint64_t rows,
                                uint32_t bits) const {
  const uint64_t blocks = (rows + kBlockRows - 1) / kBlockRows;
  if (blocks == 0 || bits == 0) return;
  cuda::LaunchConfig config;
  config.grid = static_cast<uint32_t>(std::min<uint64_t>(blocks, loaded_->max_grid));
  config.block = kLaneTransposeThreads;
  config.stream = &loaded_->stream;
  const cuda::DevicePtr ptr = words.ptr();
  cuda::launch(loaded_->kernel, config, ptr, rows, bits);
  loaded_->stream.synchronize();
}

}  // namespace tally
