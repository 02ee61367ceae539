// Copies columns into their device layout through pinned staging buffers: all cores fill
// one buffer (a copy of plain bytes, or the lane transposition of bit-packed fields) while
// the other crosses the bus, so an upload runs near the pinned copy rate rather than the
// pageable one (bench/RESULTS.md, end to end).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "runtime/cuda/memory.h"
#include "runtime/cuda/stream.h"
#include "runtime/storage/column.h"

namespace tally {

class ColumnUploader {
 public:
  // Two staging buffers of this many bytes, allocated at the first upload and kept.
  explicit ColumnUploader(uint64_t staging_bytes = uint64_t{32} << 20);

  // The device layout's byte count of a column's data (without the zero tail).
  static uint64_t data_bytes(const Column& column);

  // Writes the column's device layout (plain bytes, or lane-transposed fields: see
  // runtime/gpu/device_layout.h) to the front of `out`, and its validity words, when
  // any, to the front of `validity`.
  void upload(const Column& column, cuda::DeviceBuffer& out, cuda::DeviceBuffer& validity);

 private:
  // Produces units [first, end) of `unit_bytes` each into `host` (the last unit may be
  // cut short by the total).
  using FillUnits = std::function<void(uint64_t first, uint64_t end, uint8_t* host)>;
  void stage(cuda::DeviceBuffer& out, uint64_t total_bytes, uint64_t unit_bytes,
             const FillUnits& fill);
  void fill_parallel(uint64_t first, uint64_t end, uint64_t unit_bytes, uint8_t* host,
                     const FillUnits& fill) const;

  uint64_t staging_bytes_;
  cuda::PinnedBuffer staging_[2];
  std::optional<cuda::Stream> stream_;  // made with the staging, on the current context
};

}  // namespace tally
