// The CUDA driver API, loaded from libcuda.so.1 with dlopen at first use, so one tally
// binary starts (and runs on the CPU) where no driver or GPU exists. Internal to runtime/:
// it includes cuda.h, whose include path only the runtime library has. Code outside
// runtime/cuda uses device.h, runtime/compile/nvrtc.h and runtime/compile/probe.h instead.
#pragma once

#include <cuda.h>

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "compiler/common/byte_size.h"

namespace tally::cuda {

// Every driver entry point tally calls. cuda.h #defines the versioned names (cuMemAlloc ->
// cuMemAlloc_v2, ...), and the macro argument is expanded before use, so the table member,
// its type and the symbol looked up all follow the ABI of the cuda.h we build against.
#define TALLY_CUDA_DRIVER_FUNCTIONS(X)           \
  X(cuInit)                                      \
  X(cuDriverGetVersion)                          \
  X(cuGetErrorName)                              \
  X(cuGetErrorString)                            \
  X(cuDeviceGet)                                 \
  X(cuDeviceGetCount)                            \
  X(cuDeviceGetAttribute)                        \
  X(cuDeviceGetName)                             \
  X(cuDeviceTotalMem)                            \
  X(cuDevicePrimaryCtxRetain)                    \
  X(cuDevicePrimaryCtxRelease)                   \
  X(cuCtxSetCurrent)                             \
  X(cuCtxSynchronize)                            \
  X(cuMemGetInfo)                                \
  X(cuModuleLoadData)                            \
  X(cuModuleUnload)                              \
  X(cuModuleGetFunction)                         \
  X(cuFuncSetAttribute)                          \
  X(cuFuncGetAttribute)                          \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor) \
  X(cuLaunchKernel)                              \
  X(cuLaunchKernelEx)                            \
  X(cuMemAlloc)                                  \
  X(cuMemFree)                                   \
  X(cuMemAllocHost)                              \
  X(cuMemFreeHost)                               \
  X(cuMemcpyHtoD)                                \
  X(cuMemcpyHtoDAsync)                           \
  X(cuMemcpyDtoH)                                \
  X(cuMemcpyDtoHAsync)                           \
  X(cuMemcpyDtoD)                                \
  X(cuMemsetD8)                                  \
  X(cuMemsetD8Async)                             \
  X(cuMemsetD32)                                 \
  X(cuMemsetD32Async)                            \
  X(cuStreamCreate)                              \
  X(cuStreamDestroy)                             \
  X(cuStreamSynchronize)                         \
  X(cuEventCreate)                               \
  X(cuEventRecord)                               \
  X(cuEventSynchronize)                          \
  X(cuEventElapsedTime)                          \
  X(cuEventDestroy)

struct DriverApi {
#define TALLY_CUDA_DECLARE_ENTRY(name) decltype(&::name) name = nullptr;
  TALLY_CUDA_DRIVER_FUNCTIONS(TALLY_CUDA_DECLARE_ENTRY)
#undef TALLY_CUDA_DECLARE_ENTRY
};

// The loaded table, after a successful cuInit. Throws Error(Device) when libcuda.so.1 is
// missing, lacks an entry point, or cuInit fails; the failure is remembered, not retried.
const DriverApi& driver();

// Throws Error(Device, "<call> failed: <NAME> (<description>)[ while <context>]") unless
// `result` is CUDA_SUCCESS. `call` is the API name as the user knows it ("cuMemAlloc").
void check(CUresult result, const char* call, std::string_view context = {});

// As check, the context spelled by `context()` only on failure: launches and copies run per
// statement, and formatting their context eagerly cost microseconds of a repeated query.
template <class MakeContext>
requires std::invocable<MakeContext>
void check(CUresult result, const char* call, MakeContext&& context) {
  if (result != CUDA_SUCCESS) check(result, call, std::string_view(context()));
}

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", usable for any code (unknown ones too).
std::string describe_result(CUresult result);

}  // namespace tally::cuda
