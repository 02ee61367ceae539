#include "runtime/gpu/device_top_k.h"

#include <algorithm>
#include <deque>
#include <string_view>
#include <vector>

#include "compiler/codegen/top_k_kernel.h"
#include "compiler/common/error.h"
#include "runtime/gpu/gpu_engine_impl.h"

namespace tally {

namespace {

constexpr uint32_t kBlock = 256;  // the kernel's __launch_bounds__
// Groups a thread scans in a pass over every group, at least: fewer blocks, fewer candidates
// for the merge. A pass over a sample or the filter's candidates (at most 2^16) takes one group
// a thread: a thread's list is a chain of dependent reads, 129 us over 2^14 groups at 16 a thread
// (H200, bench/RESULTS.md session 40).
constexpr uint64_t kGroupsPerThread = 16;
constexpr uint64_t kMaxFirstPassBlocks = 1024;
// From this many groups a sample of about kSampleGroups comes first: its k-th group bounds
// the candidates. A thread's list over 57 of 15 M groups was a chain of dependent reads, 2.1
// ms in all on an H200, where one compare a group against one threshold streams.
constexpr uint64_t kSampledMinGroups = uint64_t{1} << 16;
constexpr uint64_t kSampleGroups = uint64_t{1} << 14;
// Candidates the filter keeps, at most; more (ties with the threshold) and every group goes
// through the lists as below kSampledMinGroups. About k x groups / kSampleGroups are kept.
constexpr uint64_t kCandidateCapacity = uint64_t{1} << 16;

uint32_t first_pass_blocks(uint64_t groups, uint64_t per_thread) {
  const uint64_t blocks = (groups + kBlock * per_thread - 1) / (kBlock * per_thread);
  return static_cast<uint32_t>(std::clamp<uint64_t>(blocks, 1, kMaxFirstPassBlocks));
}

// The passes of the generated tally_top_k kernel over one result's cells.
class TopKPasses {
 public:
  TopKPasses(cuda::BufferPool& pool, const cuda::Module& module, const DeviceResultCells& cells,
             uint64_t k, uint32_t order_flags)
      : pool_(pool), kernel_(module.kernel(kTopKKernelName)), k_(k) {
    args_.assign(static_cast<size_t>(TopKArg::Count), 0);
    set(TopKArg::Keys, cells.keys.ptr());
    set(TopKArg::KeyNulls, cells.key_nulls.ptr());
    set(TopKArg::Values, cells.values.ptr());
    set(TopKArg::ValueNulls, cells.value_nulls.ptr());
    set(TopKArg::KeyCount, cells.key_count);
    set(TopKArg::ValueCount, cells.value_count);
    set(TopKArg::K, k);
    set(TopKArg::OrderFlags, order_flags);
  }

  // The first k of `groups` groups into `chosen`: every stride-th group, or the first `groups`
  // of `candidates` (when not null). Each block's first k, then one block over those, which
  // with `gather` also copies the chosen groups' cells out.
  void first_k(uint64_t groups, uint64_t stride, const cuda::DeviceBuffer* candidates,
               const cuda::DeviceBuffer& chosen, bool gather) {
    const bool every_group = stride == 1 && candidates == nullptr;
    const uint32_t blocks = first_pass_blocks(groups, every_group ? kGroupsPerThread : 1);
    const cuda::DeviceBuffer& block_firsts = hold(blocks * k_ * 8, "top-k candidates");
    set(TopKArg::Threshold, 0);
    set(TopKArg::Groups, groups);
    set(TopKArg::SampleStride, stride);
    set(TopKArg::Candidates, candidates ? candidates->ptr() : 0);
    set(TopKArg::Out, block_firsts.ptr());
    set(TopKArg::GatherKeys, 0);
    launch_with_args(kernel_, blocks, kBlock, args_);
    set(TopKArg::GatherKeys, gather ? gather_keys_ : 0);
    set(TopKArg::Groups, blocks * k_);
    set(TopKArg::Candidates, block_firsts.ptr());
    set(TopKArg::Out, chosen.ptr());
    launch_with_args(kernel_, 1, kBlock, args_);
  }

  // The groups that order no later than the group at `threshold` (a device word) into
  // `kept`; returns how many there are, past its capacity too (waits for the device).
  uint64_t filter(uint64_t groups, uint64_t threshold, const cuda::DeviceBuffer& kept) {
    cuda::DeviceBuffer& count = hold(8, "top-k candidate count");
    count.fill_bytes(0);
    set(TopKArg::Groups, groups);
    set(TopKArg::Threshold, threshold);
    set(TopKArg::Out, kept.ptr());
    set(TopKArg::CandidateCount, count.ptr());
    set(TopKArg::CandidateCapacity, kCandidateCapacity);
    launch_with_args(kernel_, launch_grid(groups), kBlock, args_);
    uint64_t kept_count = 0;
    count.download(&kept_count, sizeof kept_count);
    return kept_count;
  }

  // Where a gathering launch copies the chosen groups' cells.
  void gather_into(uint64_t keys, uint64_t key_nulls, uint64_t values, uint64_t value_nulls) {
    gather_keys_ = keys;
    set(TopKArg::GatherKeyNulls, key_nulls);
    set(TopKArg::GatherValues, values);
    set(TopKArg::GatherValueNulls, value_nulls);
  }

  // A buffer that lives as long as the passes: the launches that use it are asynchronous.
  cuda::DeviceBuffer& hold(size_t bytes, std::string_view what) {
    return held_.emplace_back(pool_.allocate(bytes, what));
  }

 private:
  void set(TopKArg arg, uint64_t word) { args_[static_cast<size_t>(arg)] = word; }

  cuda::BufferPool& pool_;
  cuda::Kernel kernel_;
  uint64_t k_;
  uint64_t gather_keys_ = 0;
  std::vector<uint64_t> args_;
  std::deque<cuda::DeviceBuffer> held_;  // a deque: a new buffer moves none held before
};

}  // namespace

ChosenCells device_top_k(cuda::BufferPool& pool, const cuda::Module& module,
                         const DeviceResultCells& cells, uint64_t k, uint32_t order_flags) {
  if (k == 0 || k > kDeviceTopKMax) {
    throw Error(ErrorKind::Internal, "device top-k asked for an unsupported row count");
  }
  TopKPasses passes(pool, module, cells, k, order_flags);
  cuda::DeviceBuffer chosen = pool.allocate(k * 8, "top-k groups");
  const size_t nk = cells.key_count, na = cells.value_count;
  // One allocation each, at least a byte: a query without keys still passes a pointer.
  cuda::DeviceBuffer keys = pool.allocate(std::max<size_t>(k * nk * 16, 1), "top-k keys");
  cuda::DeviceBuffer key_nulls = pool.allocate(std::max<size_t>(k * nk, 1), "top-k key NULLs");
  cuda::DeviceBuffer values = pool.allocate(std::max<size_t>(k * na * 16, 1), "top-k values");
  cuda::DeviceBuffer value_nulls = pool.allocate(std::max<size_t>(k * na, 1), "top-k value NULLs");
  passes.gather_into(keys.ptr(), key_nulls.ptr(), values.ptr(), value_nulls.ptr());

  bool done = false;
  if (cells.groups >= kSampledMinGroups) {
    // The sample's first k: its k-th orders no earlier than the k-th of all.
    const uint64_t stride = std::max<uint64_t>(2, cells.groups / kSampleGroups);
    passes.first_k((cells.groups + stride - 1) / stride, stride, nullptr, chosen, false);
    const cuda::DeviceBuffer& kept = passes.hold(kCandidateCapacity * 8, "top-k filtered groups");
    const uint64_t count = passes.filter(cells.groups, chosen.ptr() + (k - 1) * 8, kept);
    if (count <= kCandidateCapacity) {
      passes.first_k(count, 1, &kept, chosen, true);
      done = true;
    }
  }
  if (!done) passes.first_k(cells.groups, 1, nullptr, chosen, true);

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
