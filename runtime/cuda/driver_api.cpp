#include "runtime/cuda/driver_api.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include "compiler/common/error.h"
#include "runtime/cuda/load_once.h"

namespace tally::cuda {
namespace {

constexpr const char* kDriverLibrary = "libcuda.so.1";
constexpr const char* kCpuHint = "; run with --device cpu";

// Expands a macro argument before turning it into text, so the looked-up symbol carries
// the version suffix that cuda.h gave the name ("cuMemAlloc_v2").
#define TALLY_CUDA_EXPANDED_NAME(name) #name
#define TALLY_CUDA_SYMBOL_NAME(name) TALLY_CUDA_EXPANDED_NAME(name)

void* open_driver_library() {
  void* handle = dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* reason = dlerror();
    throw Error(ErrorKind::Device,
                fmt::format("no CUDA driver: {} could not be loaded ({}){}", kDriverLibrary,
                            reason ? reason : "unknown reason", kCpuHint));
  }
  return handle;
}

template <class Fn>
void resolve(void* library, const char* symbol, Fn& entry) {
  entry = reinterpret_cast<Fn>(dlsym(library, symbol));
  if (entry == nullptr) {
    throw Error(ErrorKind::Device,
                fmt::format("the CUDA driver is too old: {} has no {} (tally needs a CUDA 13 "
                            "driver, version 580 or newer){}",
                            kDriverLibrary, symbol, kCpuHint));
  }
}

DriverApi load_driver() {
  // The handle is never closed: the table's pointers must stay valid for the process.
  void* library = open_driver_library();
  DriverApi api;
#define TALLY_CUDA_RESOLVE_ENTRY(name) resolve(library, TALLY_CUDA_SYMBOL_NAME(name), api.name);
  TALLY_CUDA_DRIVER_FUNCTIONS(TALLY_CUDA_RESOLVE_ENTRY)
#undef TALLY_CUDA_RESOLVE_ENTRY
  CUresult init = api.cuInit(0);
  if (init != CUDA_SUCCESS) {
    const char* name = nullptr;
    api.cuGetErrorName(init, &name);
    throw Error(ErrorKind::Device,
                fmt::format("the CUDA driver could not start (cuInit failed: {}); no usable GPU{}",
                            name ? name : "unknown error", kCpuHint));
  }
  return api;
}

}  // namespace

const DriverApi& driver() { return load_once<DriverApi, load_driver>(); }

std::string describe_result(CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  try {
    const DriverApi& api = driver();
    api.cuGetErrorName(result, &name);
    api.cuGetErrorString(result, &text);
  } catch (const Error&) {
    // No driver: only the number is known.
  }
  if (name == nullptr) return fmt::format("CUDA error {}", static_cast<int>(result));
  return text ? fmt::format("{} ({})", name, text) : std::string(name);
}

void check(CUresult result, const char* call, std::string_view context) {
  if (result == CUDA_SUCCESS) return;
  std::string message = fmt::format("{} failed: {}", call, describe_result(result));
  if (!context.empty()) message += fmt::format(" while {}", context);
  // These errors leave the context unusable for the rest of the process.
  if (result == CUDA_ERROR_ILLEGAL_ADDRESS || result == CUDA_ERROR_LAUNCH_FAILED ||
      result == CUDA_ERROR_ILLEGAL_INSTRUCTION || result == CUDA_ERROR_MISALIGNED_ADDRESS) {
    message += "; the GPU context is no longer usable, restart tally";
  }
  throw Error(ErrorKind::Device, message);
}

std::string format_bytes(uint64_t bytes) {
  constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double value = static_cast<double>(bytes) / 1024.0;
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(kUnits)) {
    value /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

}  // namespace tally::cuda
