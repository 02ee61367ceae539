// runtime/cuda: the device profile, buffers and the pool, streams, pinned memory, timers,
// modules and launches, and the error messages of failing driver calls.
#include <doctest/doctest.h>

#include <cstddef>
#include <functional>
#include <numeric>

#include "compiler/common/error.h"
#include "runtime/compile/probe.h"
#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/device_refs.h"

namespace tally::cuda::test {
namespace {

const char* const kDeviceKernels = R"cuda(
// Field offsets of the refs as the device compiler lays them out.
extern "C" __global__ void ref_offsets(u64* out) {
  GlobalTableRef g;
  DirectTableRef d;
  BitPackedColumn b;
  out[0] = (char*)&g.capacity - (char*)&g;
  out[1] = (char*)&g.max_probes - (char*)&g;
  out[2] = (char*)&g.status - (char*)&g;
  out[3] = (char*)&g.group_count - (char*)&g;
  out[4] = (char*)&d.status - (char*)&d;
  out[5] = (char*)&b.base - (char*)&b;
  out[6] = (char*)&b.bits - (char*)&b;
}
extern "C" __global__ void add_one(u32* values, u64 n) {
  for (u64 i = global_thread_index(); i < n; i += grid_stride()) values[i] += 1;
}
// Uses all of its dynamic shared memory, so a launch above 48 KiB must have raised the limit.
extern "C" __global__ void shared_sum(const u32* values, u32 count, u64* out) {
  extern __shared__ u32 staged[];
  for (u32 i = threadIdx.x; i < count; i += blockDim.x) staged[i] = values[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    u64 sum = 0;
    for (u32 i = 0; i < count; ++i) sum += staged[i];
    *out = sum;
  }
}
)cuda";

Module& device_module() { return test_module(kDeviceKernels, "device_test.cu"); }

std::string error_message(const std::function<void()>& action, ErrorKind expected_kind) {
  try {
    action();
  } catch (const Error& e) {
    CHECK(e.kind() == expected_kind);
    return e.what();
  }
  FAIL("no error was thrown");
  return {};
}

}  // namespace

TEST_CASE("the device profile reads plausible hardware figures") {
  const DeviceProfile& p = test_device().profile();
  MESSAGE(p.describe());
  CHECK_FALSE(p.name.empty());
  CHECK(p.cc_major >= 7);
  CHECK(p.arch() == "sm_" + std::to_string(p.cc_major) + std::to_string(p.cc_minor));
  CHECK(p.sm_count > 0);
  CHECK(p.l2_bytes >= (uint64_t{1} << 20));
  CHECK(p.shared_per_block == 48 * 1024);
  CHECK(p.shared_per_block_optin >= p.shared_per_block);
  CHECK(p.shared_per_sm >= p.shared_per_block_optin);
  CHECK(p.registers_per_sm >= 65536);
  CHECK(p.max_threads_per_sm >= 1024);
  CHECK(p.warp_size == 32);
  const MemoryInfo memory = test_device().memory_info();
  CHECK(memory.total_bytes > 0);
  CHECK(memory.total_bytes <= p.total_memory);
  CHECK(memory.free_bytes <= memory.total_bytes);
  CHECK(describe_devices().find(p.name) != std::string::npos);
  CHECK(gpu_available());
  CHECK(device_count() >= 1);
}

TEST_CASE("host mirrors of the device refs have the device's field offsets") {
  DeviceBuffer out = filled_device<uint64_t>(7, 0, "offsets");
  launch(device_module().kernel("ref_offsets"), {1, 1}, out.ptr());
  const std::vector<uint64_t> expected = {
      offsetof(GlobalTableRef, capacity), offsetof(GlobalTableRef, max_probes),
      offsetof(GlobalTableRef, status),   offsetof(GlobalTableRef, group_count),
      offsetof(DirectTableRef, status),   offsetof(BitPackedColumn, base),
      offsetof(BitPackedColumn, bits)};
  CHECK(from_device<uint64_t>(out) == expected);
}

TEST_CASE("device buffers copy, fill and move") {
  test_device();
  std::vector<uint32_t> values(1000);
  std::iota(values.begin(), values.end(), 7u);
  DeviceBuffer buffer = to_device(values, "round trip");
  CHECK(buffer.download_vector<uint32_t>(1000) == values);

  std::vector<uint32_t> part = {1, 2, 3};
  buffer.upload(part.data(), 12, 8);  // into elements 2..4
  std::vector<uint32_t> back(5);
  buffer.download(back.data(), 20);
  CHECK(back == std::vector<uint32_t>{7, 8, 1, 2, 3});
  CHECK(error_message([&] { buffer.upload(part.data(), 12, 3996); }, ErrorKind::Internal)
            .find("overruns") != std::string::npos);

  buffer.fill_words(0xdeadbeef);
  CHECK(buffer.download_vector<uint32_t>(1000) == std::vector<uint32_t>(1000, 0xdeadbeef));
  buffer.fill_bytes(0);
  CHECK(buffer.download_vector<uint32_t>(1000) == std::vector<uint32_t>(1000, 0));

  const DevicePtr address = buffer.ptr();
  DeviceBuffer moved = std::move(buffer);
  CHECK(moved.ptr() == address);
  CHECK(buffer.ptr() == 0);  // NOLINT(bugprone-use-after-move): the moved-from state
  CHECK(DeviceBuffer(0, "nothing").empty());
}

TEST_CASE("an allocation the device cannot hold names the call, the size and the use") {
  test_device();
  const std::string message = error_message(
      [] { DeviceBuffer huge(uint64_t{1} << 50, "a test of the out-of-memory message"); },
      ErrorKind::Device);
  CHECK(message.find("cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY") != std::string::npos);
  CHECK(message.find("while allocating 1.0 PiB for a test of the out-of-memory message") !=
        std::string::npos);
  // The context survives: later work still runs.
  CHECK(to_device(std::vector<int>{1, 2}, "after").download_vector<int>(2) ==
        std::vector<int>{1, 2});
}

TEST_CASE("the buffer pool reuses freed buffers of the same size class") {
  test_device();
  BufferPool pool(uint64_t{1} << 24);
  DevicePtr first = 0;
  {
    DeviceBuffer a = pool.allocate(1000, "pooled");
    first = a.ptr();
    CHECK(a.size() == 1000);
  }
  CHECK(pool.cached_bytes() == BufferPool::size_class(1000));
  DeviceBuffer b = pool.allocate(900, "pooled again");  // same 1 KiB class
  CHECK(b.ptr() == first);
  CHECK(pool.cached_bytes() == 0);
  DeviceBuffer c = pool.allocate(5000, "another class");
  CHECK(c.ptr() != first);
  // Over the cap: a freed buffer is released, not cached.
  { DeviceBuffer big = pool.allocate(uint64_t{1} << 25, "bigger than the cache"); }
  CHECK(pool.cached_bytes() == 0);
  // Out of memory with a full cache: the pool trims and still reports the failure.
  CHECK_THROWS_AS(pool.allocate(uint64_t{1} << 50, "too much"), Error);
}

TEST_CASE("streams, pinned buffers and event timers") {
  test_device();
  const uint64_t n = 1 << 20;
  Stream stream;
  PinnedBuffer host(n * sizeof(uint32_t), "staging");
  auto* words = static_cast<uint32_t*>(host.data());
  std::iota(words, words + n, 0u);
  DeviceBuffer device(n * sizeof(uint32_t), "stream test");
  EventTimer timer;
  device.upload(words, n * sizeof(uint32_t), 0, &stream);
  timer.start(&stream);
  launch(device_module().kernel("add_one"), {grid_for(n), 256, 0, &stream}, device.ptr(), n);
  timer.stop(&stream);
  device.download(words, n * sizeof(uint32_t), 0, &stream);
  stream.synchronize();
  CHECK(timer.elapsed_ms() >= 0.0f);
  bool all_incremented = true;
  for (uint64_t i = 0; i < n; ++i) all_incremented &= words[i] == i + 1;
  CHECK(all_incremented);
}

TEST_CASE("kernels: attributes, occupancy, shared memory above 48 KiB, launch errors") {
  const Kernel add_one = device_module().kernel("add_one");
  CHECK(add_one.attributes().registers > 0);
  CHECK(add_one.max_active_blocks_per_sm(256, 0) >= 1);

  const uint32_t count = 30000;  // 120 KB of shared memory
  std::vector<uint32_t> values(count);
  std::iota(values.begin(), values.end(), 1u);
  DeviceBuffer input = to_device(values, "shared input");
  DeviceBuffer out = filled_device<uint64_t>(1, 0, "shared sum");
  launch(device_module().kernel("shared_sum"), {1, 256, count * 4}, input.ptr(), count, out.ptr());
  CHECK(from_device<uint64_t>(out)[0] == uint64_t{count} * (count + 1) / 2);

  const std::string missing =
      error_message([] { device_module().kernel("no_such_kernel"); }, ErrorKind::Device);
  CHECK(missing.find("cuModuleGetFunction failed") != std::string::npos);
  CHECK(missing.find("no_such_kernel") != std::string::npos);

  DeviceBuffer data(4096, "bad launch");
  const std::string bad_launch = error_message(
      [&] {
        launch(add_one, {1, 4096}, data.ptr(), uint64_t{1024});
      },
      ErrorKind::Device);
  CHECK(bad_launch.find("cuLaunchKernel failed") != std::string::npos);
  CHECK(bad_launch.find("add_one") != std::string::npos);
  test_device().synchronize();  // a refused launch leaves the context usable
}

}  // namespace tally::cuda::test
