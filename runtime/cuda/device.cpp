#include "runtime/cuda/device.h"

#include <fmt/format.h>

#include <map>
#include <mutex>
#include <utility>

#include "compiler/common/error.h"
#include "runtime/cuda/driver_api.h"

namespace tally::cuda {
namespace {

int attribute(CUdevice device, CUdevice_attribute which, const char* what) {
  int value = 0;
  check(driver().cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute",
        fmt::format("reading the {} of device {}", what, static_cast<int>(device)));
  return value;
}

CUdevice device_handle(int ordinal) {
  const int count = device_count();
  if (count == 0) {
    throw Error(ErrorKind::Device,
                "no CUDA device: the driver is installed but sees no GPU; choose the CPU engine "
                "(device cpu)");
  }
  if (ordinal < 0 || ordinal >= count) {
    throw Error(ErrorKind::Device, fmt::format("no CUDA device {}: the driver sees {} device{} "
                                               "(0 to {})",
                                               ordinal, count, count == 1 ? "" : "s", count - 1));
  }
  CUdevice device = 0;
  check(driver().cuDeviceGet(&device, ordinal), "cuDeviceGet",
        fmt::format("opening device {}", ordinal));
  return device;
}

}  // namespace

bool gpu_available() noexcept {
  try {
    return device_count() > 0;
  } catch (...) {
    return false;
  }
}

int device_count() {
  int count = 0;
  check(driver().cuDeviceGetCount(&count), "cuDeviceGetCount");
  return count;
}

int driver_version() {
  int version = 0;
  check(driver().cuDriverGetVersion(&version), "cuDriverGetVersion");
  return version;
}

std::string DeviceProfile::arch() const { return fmt::format("sm_{}{}", cc_major, cc_minor); }

GpuTarget DeviceProfile::target() const {
  GpuTarget target;
  target.arch = arch();
  target.capability = capability();
  target.limits.sm_count = sm_count;
  target.limits.shared_per_sm = shared_per_sm;
  target.limits.shared_per_block_optin = shared_per_block_optin;
  target.limits.max_threads_per_sm = max_threads_per_sm;
  target.limits.registers_per_sm = registers_per_sm;
  target.limits.l2_bytes = l2_bytes;
  return target;
}

double DeviceProfile::peak_bandwidth_gbs() const {
  // Two transfers per memory clock (double data rate), bus width in bits.
  return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9;
}

std::string DeviceProfile::describe() const {
  std::string line = fmt::format(
      "device {}: {}, {}, {} SMs, L2 {}, shared memory {} per SM / {} per block ({} opt-in), "
      "{} registers per SM, {} threads per SM, memory {}",
      ordinal, name, arch(), sm_count, format_bytes(l2_bytes), format_bytes(shared_per_sm),
      format_bytes(shared_per_block), format_bytes(shared_per_block_optin), registers_per_sm,
      max_threads_per_sm, format_bytes(total_memory));
  if (peak_bandwidth_gbs() > 0) {
    line += fmt::format(" ({}-bit at {} MHz, {:.0f} GB/s peak)", memory_bus_bits,
                        memory_clock_khz / 1000, peak_bandwidth_gbs());
  }
  return line;
}

namespace {

DeviceProfile query_profile(int ordinal) {
  const CUdevice device = device_handle(ordinal);
  const DriverApi& api = driver();
  DeviceProfile p;
  p.ordinal = ordinal;
  char name[256] = {};
  check(api.cuDeviceGetName(name, sizeof(name) - 1, device), "cuDeviceGetName");
  p.name = name;
  size_t total = 0;
  check(api.cuDeviceTotalMem(&total, device), "cuDeviceTotalMem");
  p.total_memory = total;
  p.cc_major =
      attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "compute capability");
  p.cc_minor =
      attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "compute capability");
  p.sm_count = attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count");
  p.l2_bytes = attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 size");
  p.shared_per_sm =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, "shared memory");
  p.shared_per_block =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "shared memory");
  p.shared_per_block_optin =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "shared memory");
  p.registers_per_sm =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, "register count");
  p.registers_per_block =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, "register count");
  p.max_threads_per_sm =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, "thread limit");
  p.max_threads_per_block =
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "thread limit");
  p.warp_size = attribute(device, CU_DEVICE_ATTRIBUTE_WARP_SIZE, "warp size");
  p.memory_clock_khz = attribute(device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, "memory clock");
  p.memory_bus_bits =
      attribute(device, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, "memory bus width");
  return p;
}

}  // namespace

// Memoized: a device's attributes do not change in a process, and every compile-only
// statement asks for them (about twenty driver calls).
DeviceProfile read_profile(int ordinal) {
  static std::mutex mutex;
  static std::map<int, DeviceProfile> profiles;
  std::lock_guard lock(mutex);
  auto it = profiles.find(ordinal);
  if (it == profiles.end()) it = profiles.emplace(ordinal, query_profile(ordinal)).first;
  return it->second;
}

void require_supported(const DeviceProfile& profile) {
  if (auto why = unsupported_gpu(profile.name, profile.capability())) {
    throw Error(ErrorKind::Device, *why);
  }
}

namespace {

std::string lost_context_message(const std::string& reason) {
  return fmt::format(
      "the GPU context was lost earlier in this process ({}); restart tally to use the GPU",
      reason);
}

}  // namespace

std::optional<std::string> why_gpu_unusable() {
  if (std::optional<std::string> lost = lost_context()) return lost_context_message(*lost);
  if (!gpu_available()) return "no GPU is available";
  try {
    DeviceProfile profile = read_profile(0);
    return unsupported_gpu(profile.name, profile.capability());
  } catch (const std::exception& e) {
    return e.what();
  }
}

GpuTarget gpu_target_in_hand() {
  if (why_gpu_unusable()) return default_gpu_target();
  return read_profile(0).target();
}

Device Device::supported(int ordinal) {
  if (std::optional<std::string> lost = lost_context()) {
    throw Error(ErrorKind::Device, lost_context_message(*lost));
  }
  require_supported(read_profile(ordinal));
  return Device(ordinal);
}

Device::Device(int ordinal) : device_(device_handle(ordinal)), profile_(read_profile(ordinal)) {
  CUcontext context = nullptr;
  check(driver().cuDevicePrimaryCtxRetain(&context, device_), "cuDevicePrimaryCtxRetain",
        fmt::format("opening device {} ({})", ordinal, profile_.name));
  context_ = context;
  try {
    make_current();
  } catch (...) {
    release();
    throw;
  }
}

Device::~Device() { release(); }

Device::Device(Device&& other) noexcept
    : context_(std::exchange(other.context_, nullptr)),
      device_(other.device_),
      profile_(std::move(other.profile_)) {}

Device& Device::operator=(Device&& other) noexcept {
  if (this != &other) {
    release();
    context_ = std::exchange(other.context_, nullptr);
    device_ = other.device_;
    profile_ = std::move(other.profile_);
  }
  return *this;
}

void Device::release() noexcept {
  if (context_ == nullptr) return;
  // A destructor cannot report a failure; the reference is gone either way.
  driver().cuDevicePrimaryCtxRelease(device_);
  context_ = nullptr;
}

void Device::make_current() const {
  check(driver().cuCtxSetCurrent(context_), "cuCtxSetCurrent",
        fmt::format("selecting device {}", profile_.ordinal));
}

void Device::synchronize() const {
  check(driver().cuCtxSynchronize(), "cuCtxSynchronize", "waiting for the GPU");
}

MemoryInfo Device::memory_info() const {
  size_t free_bytes = 0, total_bytes = 0;
  check(driver().cuMemGetInfo(&free_bytes, &total_bytes), "cuMemGetInfo");
  return {free_bytes, total_bytes};
}

}  // namespace tally::cuda
