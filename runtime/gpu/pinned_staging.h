// Copies between host memory and the device through pinned staging buffers, on many cores.
// Uploads of columns: each lane (a worker thread: 8 for bytes as stored, every worker for the
// host's lane transposition of bit-packed fields) fills one of its two buffers while the other
// crosses the bus on its own stream, so an upload runs near the pinned copy rate rather than the
// pageable one. Downloads of results: each worker copies its chunks into its buffer and
// on into the destination, so the destination's pages are first touched in parallel
// (bench/RESULTS.md, end to end).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/stream.h"
#include "runtime/gpu/device_transpose.h"
#include "runtime/storage/column.h"

namespace tally {

class PinnedStaging {
 public:
  // Two staging buffers of `slot_bytes` a worker thread, made by pin_lanes() or at first use.
  explicit PinnedStaging(uint64_t slot_bytes = uint64_t{2} << 20);
  ~PinnedStaging();

  // Pins the copying lanes' buffers now, on the calling thread (`device` current). For a large
  // upload: workers pinning their own at once were slower (an H200 host's first 1.6 GB
  // upload: 92-95 ms with the buffers pinned ahead on one thread, 99-119 ms without).
  void pin_lanes();

  // The device layout's byte count of a column's data (without the zero tail).
  static uint64_t data_bytes(const Column& column);

  // Writes the column's device layout (plain bytes, or lane-transposed fields: see
  // runtime/gpu/device_layout.h) to the front of `out`, and its validity words, when
  // any, to the front of `validity`, on `device`. Bit-packed fields are copied as stored and
  // transposed on the device where `transpose` is ready, else transposed here.
  void upload(const cuda::Device& device, const Column& column, cuda::DeviceBuffer& out,
              cuda::DeviceBuffer& validity, DeviceTranspose* transpose = nullptr);

  // Copies the first `bytes` of `from` to `to`, on `device`.
  void download(const cuda::Device& device, const cuda::DeviceBuffer& from, void* to,
                uint64_t bytes);

 private:
  // Produces units [first, end) of `unit_bytes` each into `host` (the last unit may be
  // cut short by the total).
  using FillUnits = std::function<void(uint64_t first, uint64_t end, uint8_t* host)>;
  void stage(const cuda::Device& device, cuda::DeviceBuffer& out, uint64_t total_bytes,
             uint64_t unit_bytes, size_t lanes, const FillUnits& fill);
  // `bytes` to the front of `out`, as they are.
  void stage_as_stored(const cuda::Device& device, cuda::DeviceBuffer& out,
                       std::span<const uint8_t> bytes);

  // A worker's staging: it fills one buffer while its stream copies the other.
  struct Lane {
    explicit Lane(uint64_t slot_bytes);
    cuda::PinnedBuffer buffers[2];
    cuda::Stream stream;
  };
  // Worker `w`'s lane, made by pin_lanes() or by that worker at its first copy.
  Lane& lane(size_t w);

  uint64_t slot_bytes_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  size_t copy_lanes_;  // of lanes_, those that copy bytes as stored (the host's transposition
                       // takes every lane)
};

}  // namespace tally
