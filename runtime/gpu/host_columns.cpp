#include "runtime/gpu/host_columns.h"

#include <algorithm>
#include <cstring>

#include "compiler/common/run_parallel.h"
#include "runtime/gpu/device_layout.h"
#include "runtime/gpu/pinned_staging.h"

namespace tally {

namespace {

constexpr uint64_t kBlockWords = kLaneBlockRows / 64;  // validity words of a block
constexpr uint64_t kCopyUnitBytes = 1 << 20;           // a task's share of a plain copy

uint64_t round_up_block(uint64_t row) {
  return (row + kLaneBlockRows - 1) / kLaneBlockRows * kLaneBlockRows;
}

void parallel_copy(const uint8_t* from, uint64_t bytes, uint8_t* to) {
  run_parallel((bytes + kCopyUnitBytes - 1) / kCopyUnitBytes, [&](size_t unit) {
    const uint64_t begin = unit * kCopyUnitBytes;
    std::memcpy(to + begin, from + begin, std::min(kCopyUnitBytes, bytes - begin));
  });
}

}  // namespace

uint64_t layout_offset(const Column& column, uint64_t row) {
  if (column.encoding() == Encoding::Plain) {
    return row * static_cast<uint64_t>(physical_width(column.type()));
  }
  return row / kLaneBlockRows * 32 * 4 * static_cast<uint64_t>(column.bits());
}

ByteRange HostColumn::data_range(uint64_t first_row, uint64_t end_row) const {
  const uint64_t total = data_bytes + kBlockPadBytes;
  const uint64_t begin = std::min(layout_offset(*column, first_row), total);
  const uint64_t end =
      std::min(layout_offset(*column, round_up_block(end_row)) + kBlockPadBytes, total);
  return {begin, end};
}

ByteRange HostColumn::validity_range(uint64_t first_row, uint64_t end_row) const {
  if (validity.size() == 0) return {};
  const uint64_t end_words = round_up_block(end_row) / 64;
  return {first_row / 64 * 8, std::min<uint64_t>(end_words * 8, validity.size())};
}

HostColumn make_host_column(const ColumnPtr& column) {
  HostColumn h;
  h.column = column;
  h.data_bytes = PinnedStaging::data_bytes(*column);
  h.data = cuda::PinnedBuffer(h.data_bytes + kBlockPadBytes, "a host-resident column");
  auto* data = static_cast<uint8_t*>(h.data.data());
  std::memset(data + h.data_bytes, 0, kBlockPadBytes);
  if (column->encoding() == Encoding::Plain) {
    parallel_copy(column->plain_bytes().data(), h.data_bytes, data);
  } else if (column->bits() > 0) {
    const auto bits = static_cast<uint32_t>(column->bits());
    const uint64_t blocks = (column->size() + kLaneBlockRows - 1) / kLaneBlockRows;
    constexpr uint64_t kBlocksPerTask = 64;
    run_parallel((blocks + kBlocksPerTask - 1) / kBlocksPerTask, [&](size_t task) {
      const uint64_t first = task * kBlocksPerTask;
      const uint64_t end = std::min(blocks, first + kBlocksPerTask);
      lane_transpose_blocks(column->packed_words(), column->size(), bits, first, end,
                            reinterpret_cast<uint32_t*>(data) + first * 32 * bits);
    });
  }
  const auto& words = column->validity_words();
  if (!words.empty()) {
    const uint64_t padded = (words.size() + kBlockWords - 1) / kBlockWords * kBlockWords;
    h.validity = cuda::PinnedBuffer(padded * 8, "a host-resident validity bitmap");
    auto* bytes = static_cast<uint8_t*>(h.validity.data());
    parallel_copy(reinterpret_cast<const uint8_t*>(words.data()), words.size() * 8, bytes);
    std::memset(bytes + words.size() * 8, 0, (padded - words.size()) * 8);
  }
  return h;
}

}  // namespace tally
