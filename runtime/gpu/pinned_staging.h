// Copies between host memory and the device through pinned staging buffers, on all cores.
// Uploads of columns: every worker thread fills one of its own two buffers (a copy of
// plain bytes, or the lane transposition of bit-packed fields) while the other crosses the
// bus on its own stream, so an upload runs near the pinned copy rate rather than the
// pageable one. Downloads of results: each worker copies its chunks into its buffer and
// on into the destination, so the destination's pages are first touched in parallel
// (bench/RESULTS.md, end to end).
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/stream.h"
#include "runtime/storage/column.h"

namespace tally {

class PinnedStaging {
 public:
  // Two staging buffers of `slot_bytes` a worker thread, made by prepare() or at first use.
  explicit PinnedStaging(uint64_t slot_bytes = uint64_t{2} << 20);
  ~PinnedStaging();

  // Starts making every worker's staging on a thread of its own (once), so that pinning
  // the buffers overlaps what comes before the first copy (NVRTC). A worker whose lane that
  // thread has not reached makes its own: a first copy never waits for all of them.
  void prepare(const cuda::Device& device);

  // The device layout's byte count of a column's data (without the zero tail).
  static uint64_t data_bytes(const Column& column);

  // Writes the column's device layout (plain bytes, or lane-transposed fields: see
  // runtime/gpu/device_layout.h) to the front of `out`, and its validity words, when
  // any, to the front of `validity`, on `device`.
  void upload(const cuda::Device& device, const Column& column, cuda::DeviceBuffer& out,
              cuda::DeviceBuffer& validity);

  // Copies the first `bytes` of `from` to `to`, on `device`.
  void download(const cuda::Device& device, const cuda::DeviceBuffer& from, void* to,
                uint64_t bytes);

 private:
  // Produces units [first, end) of `unit_bytes` each into `host` (the last unit may be
  // cut short by the total).
  using FillUnits = std::function<void(uint64_t first, uint64_t end, uint8_t* host)>;
  void stage(const cuda::Device& device, cuda::DeviceBuffer& out, uint64_t total_bytes,
             uint64_t unit_bytes, const FillUnits& fill);

  // A worker's staging: it fills one buffer while its stream copies the other.
  struct Lane {
    explicit Lane(uint64_t slot_bytes);
    cuda::PinnedBuffer buffers[2];
    cuda::Stream stream;
  };
  // Worker `w`'s lane, made by whichever comes first: prepare's thread or that worker at its
  // first copy (made on one thread, 32 buffers took 30 ms of a first upload on an H100 host).
  // A lane that failed to pin stays unmade, so its worker's own try raises the error.
  Lane& lane(size_t w);
  struct LaneSlot {
    std::mutex mutex;
    std::unique_ptr<Lane> lane;
  };

  uint64_t slot_bytes_;
  std::vector<LaneSlot> lanes_;
  bool prepare_started_ = false;
  std::future<void> prepared_;  // declared last: destroyed (waited for) before the lanes
};

}  // namespace tally
