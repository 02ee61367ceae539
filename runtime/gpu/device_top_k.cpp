#include "runtime/gpu/device_top_k.h"

#include <algorithm>
#include <vector>

#include "compiler/codegen/top_k_kernel.h"
#include "compiler/common/error.h"
#include "runtime/gpu/gpu_engine_impl.h"

namespace tally {

namespace {

constexpr uint32_t kBlock = 256;  // the kernel's __launch_bounds__
// Groups a thread scans in the first pass, at least: fewer blocks, fewer candidates.
constexpr uint64_t kGroupsPerThread = 16;
constexpr uint64_t kMaxFirstPassBlocks = 1024;

uint32_t first_pass_blocks(uint64_t groups) {
  const uint64_t blocks = (groups + kBlock * kGroupsPerThread - 1) / (kBlock * kGroupsPerThread);
  return static_cast<uint32_t>(std::clamp<uint64_t>(blocks, 1, kMaxFirstPassBlocks));
}

}  // namespace

ChosenCells device_top_k(cuda::BufferPool& pool, const cuda::Module& module,
                         const DeviceResultCells& cells, uint64_t k, uint32_t order_flags) {
  if (k == 0 || k > kDeviceTopKMax) {
    throw Error(ErrorKind::Internal, "device top-k asked for an unsupported row count");
  }
  const cuda::Kernel kernel = module.kernel(kTopKKernelName);
  const uint32_t blocks = first_pass_blocks(cells.groups);
  cuda::DeviceBuffer candidates = pool.allocate(blocks * k * 8, "top-k candidates");
  cuda::DeviceBuffer chosen = pool.allocate(k * 8, "top-k groups");
  const size_t nk = cells.key_count, na = cells.value_count;
  // One allocation each, at least a byte: a query without keys still passes a pointer.
  cuda::DeviceBuffer keys = pool.allocate(std::max<size_t>(k * nk * 16, 1), "top-k keys");
  cuda::DeviceBuffer key_nulls = pool.allocate(std::max<size_t>(k * nk, 1), "top-k key NULLs");
  cuda::DeviceBuffer values = pool.allocate(std::max<size_t>(k * na * 16, 1), "top-k values");
  cuda::DeviceBuffer value_nulls = pool.allocate(std::max<size_t>(k * na, 1), "top-k value NULLs");

  std::vector<uint64_t> args(static_cast<size_t>(TopKArg::Count), 0);
  auto set = [&](TopKArg arg, uint64_t word) { args[static_cast<size_t>(arg)] = word; };
  set(TopKArg::Keys, cells.keys.ptr());
  set(TopKArg::KeyNulls, cells.key_nulls.ptr());
  set(TopKArg::Values, cells.values.ptr());
  set(TopKArg::ValueNulls, cells.value_nulls.ptr());
  set(TopKArg::KeyCount, nk);
  set(TopKArg::ValueCount, na);
  set(TopKArg::K, k);
  set(TopKArg::OrderFlags, order_flags);
  // Every group, to each block's first k.
  set(TopKArg::Groups, cells.groups);
  set(TopKArg::Out, candidates.ptr());
  launch_with_args(kernel, blocks, kBlock, args);
  // One block over the candidates, to the first k, and their cells packed.
  set(TopKArg::Groups, blocks * k);
  set(TopKArg::Candidates, candidates.ptr());
  set(TopKArg::Out, chosen.ptr());
  set(TopKArg::GatherKeys, keys.ptr());
  set(TopKArg::GatherKeyNulls, key_nulls.ptr());
  set(TopKArg::GatherValues, values.ptr());
  set(TopKArg::GatherValueNulls, value_nulls.ptr());
  launch_with_args(kernel, 1, kBlock, args);

  ChosenCells out;
  out.count = std::min<uint64_t>(k, cells.groups);
  out.keys.reset(new int128[k * nk]);
  out.key_nulls.reset(new uint8_t[k * nk]);
  out.values.reset(new int128[k * na]);
  out.value_nulls.reset(new uint8_t[k * na]);
  auto download = [](const cuda::DeviceBuffer& from, void* to, size_t bytes) {
    if (bytes > 0) from.download(to, bytes);
  };
  download(keys, out.keys.get(), out.count * nk * 16);
  download(key_nulls, out.key_nulls.get(), out.count * nk);
  download(values, out.values.get(), out.count * na * 16);
  download(value_nulls, out.value_nulls.get(), out.count * na);
  return out;
}

}  // namespace tally
