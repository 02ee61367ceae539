#include "runtime/gpu/column_upload.h"

#include <algorithm>
#include <cstring>

#include "compiler/common/error.h"
#include "compiler/common/run_parallel.h"
#include "runtime/gpu/device_layout.h"

namespace tally {

namespace {

constexpr uint64_t kPlainUnitBytes = 64 << 10;  // a copy task's share of plain bytes

uint64_t packed_unit_bytes(const Column& column) {
  return 32 * 4 * static_cast<uint64_t>(column.bits());  // one 1024-row block
}

}  // namespace

ColumnUploader::ColumnUploader(uint64_t staging_bytes) : staging_bytes_(staging_bytes) {}

uint64_t ColumnUploader::data_bytes(const Column& column) {
  if (column.encoding() == Encoding::Plain) return column.plain_bytes().size();
  return lane_transposed_word_count(column.size(), static_cast<uint32_t>(column.bits())) * 4;
}

void ColumnUploader::upload(const Column& column, cuda::DeviceBuffer& out,
                            cuda::DeviceBuffer& validity) {
  if (!stream_) {
    for (auto& buffer : staging_) buffer = cuda::PinnedBuffer(staging_bytes_, "upload staging");
    stream_.emplace();
  }
  if (column.encoding() == Encoding::Plain) {
    const std::span<const uint8_t> bytes = column.plain_bytes();
    stage(out, bytes.size(), kPlainUnitBytes, [&](uint64_t first, uint64_t end, uint8_t* host) {
      const uint64_t from = first * kPlainUnitBytes;
      const uint64_t to = std::min<uint64_t>(bytes.size(), end * kPlainUnitBytes);
      std::memcpy(host, bytes.data() + from, to - from);
    });
  } else if (column.bits() > 0) {
    const auto bits = static_cast<uint32_t>(column.bits());
    const uint64_t blocks = (column.size() + kLaneBlockRows - 1) / kLaneBlockRows;
    const uint64_t unit = packed_unit_bytes(column);
    stage(out, blocks * unit, unit, [&](uint64_t first, uint64_t end, uint8_t* host) {
      lane_transpose_blocks(column.packed_words(), column.size(), bits, first, end,
                            reinterpret_cast<uint32_t*>(host));
    });
  }
  const auto& words = column.validity_words();
  if (!words.empty()) {
    const auto* bytes = reinterpret_cast<const uint8_t*>(words.data());
    const uint64_t size = words.size() * 8;
    stage(validity, size, kPlainUnitBytes, [&](uint64_t first, uint64_t end, uint8_t* host) {
      const uint64_t to = std::min<uint64_t>(size, end * kPlainUnitBytes);
      std::memcpy(host, bytes + first * kPlainUnitBytes, to - first * kPlainUnitBytes);
    });
  }
}

// Double buffering on one stream: while chunk k is copied, chunk k + 1 is filled; the
// synchronize before a copy is queued waits for the copy of the buffer about to be reused.
void ColumnUploader::stage(cuda::DeviceBuffer& out, uint64_t total_bytes, uint64_t unit_bytes,
                           const FillUnits& fill) {
  const uint64_t units = (total_bytes + unit_bytes - 1) / unit_bytes;
  const uint64_t chunk_units = staging_bytes_ / unit_bytes;
  if (chunk_units == 0) throw Error(ErrorKind::Internal, "upload staging smaller than a unit");
  int buffer = 0;
  for (uint64_t first = 0; first < units; first += chunk_units, buffer ^= 1) {
    const uint64_t end = std::min(units, first + chunk_units);
    auto* host = static_cast<uint8_t*>(staging_[buffer].data());
    fill_parallel(first, end, unit_bytes, host, fill);
    const uint64_t offset = first * unit_bytes;
    const uint64_t bytes = std::min(total_bytes, end * unit_bytes) - offset;
    stream_->synchronize();
    out.upload(host, bytes, offset, &*stream_);
  }
  stream_->synchronize();
}

void ColumnUploader::fill_parallel(uint64_t first, uint64_t end, uint64_t unit_bytes, uint8_t* host,
                                   const FillUnits& fill) const {
  // A few tasks a thread, so that threads that start late still find work.
  const uint64_t units = end - first;
  const uint64_t tasks = std::clamp<uint64_t>(worker_threads() * 4, 1, units);
  const uint64_t per_task = (units + tasks - 1) / tasks;
  run_parallel(tasks, [&](size_t t) {
    const uint64_t a = std::min(end, first + t * per_task);
    const uint64_t b = std::min(end, a + per_task);
    if (a < b) fill(a, b, host + (a - first) * unit_bytes);
  });
}

}  // namespace tally
