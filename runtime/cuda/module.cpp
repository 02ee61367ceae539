#include "runtime/cuda/module.h"

#include <fmt/format.h>

#include <utility>

#include "compiler/common/error.h"
#include "runtime/cuda/driver_api.h"

namespace tally::cuda {
namespace {

constexpr uint32_t kDefaultSharedLimit = 48 * 1024;

int function_attribute(const Kernel& kernel, CUfunction_attribute which) {
  int value = 0;
  check(driver().cuFuncGetAttribute(&value, which, kernel.handle()), "cuFuncGetAttribute",
        fmt::format("inspecting kernel {}", kernel.name()));
  return value;
}

}  // namespace

KernelAttributes Kernel::attributes() const {
  KernelAttributes a;
  a.registers = function_attribute(*this, CU_FUNC_ATTRIBUTE_NUM_REGS);
  a.local_bytes = function_attribute(*this, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
  a.static_shared_bytes = function_attribute(*this, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  a.max_threads_per_block = function_attribute(*this, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  return a;
}

int Kernel::max_active_blocks_per_sm(uint32_t block, uint32_t shared_bytes) const {
  int blocks = 0;
  check(
      driver().cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function_, block, shared_bytes),
      "cuOccupancyMaxActiveBlocksPerMultiprocessor",
      fmt::format("sizing the grid of kernel {}", name_));
  return blocks;
}

Module::Module(const std::vector<char>& image) {
  if (image.empty()) throw Error(ErrorKind::Internal, "loading an empty GPU module image");
  CUmodule module = nullptr;
  check(driver().cuModuleLoadData(&module, image.data()), "cuModuleLoadData",
        fmt::format("loading a compiled module of {} bytes", image.size()));
  module_ = module;
  functions_ = std::make_unique<Functions>();
}

Module::~Module() { release(); }

Module::Module(Module&& other) noexcept
    : module_(std::exchange(other.module_, nullptr)), functions_(std::move(other.functions_)) {}

Module& Module::operator=(Module&& other) noexcept {
  if (this != &other) {
    release();
    module_ = std::exchange(other.module_, nullptr);
    functions_ = std::move(other.functions_);
  }
  return *this;
}

void Module::release() noexcept {
  if (module_ != nullptr) driver().cuModuleUnload(module_);
  module_ = nullptr;
  functions_.reset();
}

Kernel Module::kernel(const std::string& name) const {
  if (!functions_) throw Error(ErrorKind::Internal, "looking up a kernel of an unloaded module");
  std::lock_guard lock(functions_->mutex);
  for (const auto& [known, function] : functions_->by_name) {
    if (known == name) return Kernel(function, name);
  }
  CUfunction function = nullptr;
  check(driver().cuModuleGetFunction(&function, module_, name.c_str()), "cuModuleGetFunction",
        fmt::format("looking up kernel {}", name));
  functions_->by_name.emplace_back(name, function);
  return Kernel(function, name);
}

void launch_kernel(const Kernel& kernel, const LaunchConfig& config, void** params) {
  if (config.shared_bytes > kDefaultSharedLimit) {
    check(driver().cuFuncSetAttribute(kernel.handle(),
                                      CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                      static_cast<int>(config.shared_bytes)),
          "cuFuncSetAttribute",
          fmt::format("raising the shared memory of kernel {} to {}", kernel.name(),
                      format_bytes(config.shared_bytes)));
  }
  auto what = [&] {
    return fmt::format("launching kernel {} with {} blocks of {} threads and {} of shared memory{}",
                       kernel.name(), config.grid, config.block, format_bytes(config.shared_bytes),
                       config.dependent ? " as a programmatic dependent" : "");
  };
  if (!config.dependent) {
    check(
        driver().cuLaunchKernel(kernel.handle(), config.grid, 1, 1, config.block, 1, 1,
                                config.shared_bytes, stream_handle(config.stream), params, nullptr),
        "cuLaunchKernel", what);
    return;
  }
  CUlaunchAttribute dependent{};
  dependent.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  dependent.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig launch{};
  launch.gridDimX = config.grid;
  launch.gridDimY = launch.gridDimZ = 1;
  launch.blockDimX = config.block;
  launch.blockDimY = launch.blockDimZ = 1;
  launch.sharedMemBytes = config.shared_bytes;
  launch.hStream = stream_handle(config.stream);
  launch.attrs = &dependent;
  launch.numAttrs = 1;
  check(driver().cuLaunchKernelEx(&launch, kernel.handle(), params, nullptr), "cuLaunchKernelEx",
        what);
}

}  // namespace tally::cuda
