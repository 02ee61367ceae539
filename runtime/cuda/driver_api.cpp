#include "runtime/cuda/driver_api.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <mutex>
#include <optional>

#include "compiler/common/error.h"
#include "runtime/cuda/device.h"
#include "runtime/cuda/load_once.h"

namespace tally::cuda {
namespace {

constexpr const char* kDriverLibrary = "libcuda.so.1";
// The library, the tally command and Python all name the engine so ("device cpu").
constexpr const char* kCpuHint = "; choose the CPU engine (device cpu)";

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

// The first error after which every call in the context fails (a sticky error).
std::mutex g_lost_mutex;
std::optional<std::string> g_lost_reason;

void remember_lost_context(const std::string& message) {
  std::lock_guard lock(g_lost_mutex);
  if (!g_lost_reason) g_lost_reason = message;
}

bool loses_context(CUresult result) {
  switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
      return true;
    default:
      return false;
  }
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
  if (loses_context(result)) {
    remember_lost_context(message);
    message +=
        "; the GPU context is lost: CUDA cannot recover it in this process, so GPU "
        "statements fail until tally restarts (CPU statements still run)";
  }
  throw Error(ErrorKind::Device, message);
}

std::optional<std::string> lost_context() {
  std::lock_guard lock(g_lost_mutex);
  return g_lost_reason;
}

}  // namespace tally::cuda
