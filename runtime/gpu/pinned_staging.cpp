#include "runtime/gpu/pinned_staging.h"

#include <algorithm>
#include <cstring>

#include "compiler/common/error.h"
#include "compiler/common/run_parallel.h"
#include "runtime/gpu/device_layout.h"

namespace tally {

namespace {

constexpr uint64_t kPlainUnitBytes = 64 << 10;  // a copy task's share of plain bytes
// Lanes that copy bytes as stored: memcpy on 8 cores keeps the bus busy, and each lane's
// buffers are pinned before the first copy (1.8 GB/s of pinning). On an H100 host a fresh
// process's first 671 MB went up in 31-41 ms with 8 lanes against 50-54 with 16, Q1's 450 MB
// in 37-43 against 52; with 4, a 1 GB plain column slowed (56-66 ms against 33-38).
constexpr size_t kCopyLanes = 8;

uint64_t packed_unit_bytes(const Column& column) {
  return 32 * 4 * static_cast<uint64_t>(column.bits());  // one 1024-row block
}

}  // namespace

PinnedStaging::PinnedStaging(uint64_t slot_bytes)
    : slot_bytes_(slot_bytes),
      lanes_(worker_threads()),
      copy_lanes_(std::min(lanes_.size(), kCopyLanes)) {}

PinnedStaging::~PinnedStaging() = default;

uint64_t PinnedStaging::data_bytes(const Column& column) {
  if (column.encoding() == Encoding::Plain) return column.plain_bytes().size();
  return lane_transposed_word_count(column.size(), static_cast<uint32_t>(column.bits())) * 4;
}

PinnedStaging::Lane::Lane(uint64_t slot_bytes)
    : buffers{cuda::PinnedBuffer(slot_bytes, "copy staging"),
              cuda::PinnedBuffer(slot_bytes, "copy staging")} {}

void PinnedStaging::pin_lanes() {
  for (size_t w = 0; w < copy_lanes_; ++w) lane(w);
}

PinnedStaging::Lane& PinnedStaging::lane(size_t w) {
  if (!lanes_[w]) lanes_[w] = std::make_unique<Lane>(slot_bytes_);
  return *lanes_[w];
}

void PinnedStaging::download(const cuda::Device& device, const cuda::DeviceBuffer& from, void* to,
                             uint64_t bytes) {
  if (bytes <= slot_bytes_) {  // a small result: one plain copy
    from.download(to, bytes);
    return;
  }
  const uint64_t chunks = (bytes + slot_bytes_ - 1) / slot_bytes_;
  const uint64_t workers = std::min<uint64_t>(lanes_.size(), chunks);
  run_parallel(workers, [&](size_t w) {
    device.make_current();  // the driver's current context is per thread
    Lane& lane = this->lane(w);
    for (uint64_t c = w; c < chunks; c += workers) {
      const uint64_t offset = c * slot_bytes_;
      const uint64_t size = std::min(bytes - offset, slot_bytes_);
      from.download(lane.buffers[0].data(), size, offset, &lane.stream);
      lane.stream.synchronize();
      std::memcpy(static_cast<uint8_t*>(to) + offset, lane.buffers[0].data(), size);
    }
  });
}

void PinnedStaging::upload(const cuda::Device& device, const Column& column,
                           cuda::DeviceBuffer& out, cuda::DeviceBuffer& validity,
                           DeviceTranspose* transpose) {
  if (column.encoding() == Encoding::Plain) {
    stage_as_stored(device, out, column.plain_bytes());
  } else if (column.bits() > 0 && transpose && transpose->ready(device)) {
    const std::span<const uint64_t> words = column.packed_words();
    // The words cover the fields (ceil(rows * bits / 64)) and never pass the device layout.
    const uint64_t bytes = std::min<uint64_t>(words.size() * 8, data_bytes(column));
    stage_as_stored(device, out, {reinterpret_cast<const uint8_t*>(words.data()), bytes});
    transpose->transpose(out, column.size(), static_cast<uint32_t>(column.bits()));
  } else if (column.bits() > 0) {
    const auto bits = static_cast<uint32_t>(column.bits());
    const uint64_t blocks = (column.size() + kLaneBlockRows - 1) / kLaneBlockRows;
    const uint64_t unit = packed_unit_bytes(column);
    stage(device, out, blocks * unit, unit, lanes_.size(),
          [&](uint64_t first, uint64_t end, uint8_t* host) {
            lane_transpose_blocks(column.packed_words(), column.size(), bits, first, end,
                                  reinterpret_cast<uint32_t*>(host));
          });
  }
  const auto& words = column.validity_words();
  if (!words.empty()) {
    stage_as_stored(device, validity,
                    {reinterpret_cast<const uint8_t*>(words.data()), words.size() * 8});
  }
}

void PinnedStaging::stage_as_stored(const cuda::Device& device, cuda::DeviceBuffer& out,
                                    std::span<const uint8_t> bytes) {
  stage(device, out, bytes.size(), kPlainUnitBytes, copy_lanes_,
        [&](uint64_t first, uint64_t end, uint8_t* host) {
          const uint64_t from = first * kPlainUnitBytes;
          const uint64_t to = std::min<uint64_t>(bytes.size(), end * kPlainUnitBytes);
          std::memcpy(host, bytes.data() + from, to - from);
        });
}

// Chunk c goes to worker c % workers. A worker fills buffer A and queues its copy, fills
// B, waits for its stream (A's copy, the only one queued), queues B's copy, fills A...
void PinnedStaging::stage(const cuda::Device& device, cuda::DeviceBuffer& out, uint64_t total_bytes,
                          uint64_t unit_bytes, size_t lanes, const FillUnits& fill) {
  const uint64_t units = (total_bytes + unit_bytes - 1) / unit_bytes;
  const uint64_t chunk_units = slot_bytes_ / unit_bytes;
  if (chunk_units == 0) throw Error(ErrorKind::Internal, "upload staging smaller than a unit");
  const uint64_t chunks = (units + chunk_units - 1) / chunk_units;
  const uint64_t workers = std::min<uint64_t>(lanes, chunks);
  run_parallel(workers, [&](size_t w) {
    device.make_current();  // the driver's current context is per thread
    Lane& lane = this->lane(w);
    int buffer = 0;
    for (uint64_t c = w; c < chunks; c += workers, buffer ^= 1) {
      const uint64_t first = c * chunk_units;
      const uint64_t end = std::min(units, first + chunk_units);
      auto* host = static_cast<uint8_t*>(lane.buffers[buffer].data());
      fill(first, end, host);
      const uint64_t offset = first * unit_bytes;
      lane.stream.synchronize();
      out.upload(host, std::min(total_bytes, end * unit_bytes) - offset, offset, &lane.stream);
    }
    lane.stream.synchronize();
  });
}

}  // namespace tally
