#include "runtime/gpu/streamed_scan.h"

#include <algorithm>

#include "compiler/common/error.h"
#include "runtime/gpu/device_layout.h"

namespace tally {

namespace {

constexpr uint64_t kTargetBatches = 16;

uint64_t blocks_of(uint64_t rows) { return (rows + kLaneBlockRows - 1) / kLaneBlockRows; }

}  // namespace

StreamShape choose_stream_shape(uint64_t rows, uint64_t block_bytes, uint64_t scan_warps,
                                uint64_t budget_bytes, uint64_t forced_rows) {
  const uint64_t total_blocks = std::max<uint64_t>(1, blocks_of(rows));
  uint64_t blocks = 0;
  if (forced_rows > 0) {
    blocks = blocks_of(forced_rows);
  } else {
    // Every Scan ends by merging each warp's states into the global ones, a cost per launch
    // that batches of less than a block a warp stop hiding behind the copies (bench/RESULTS.md).
    blocks = std::clamp<uint64_t>(total_blocks / kTargetBatches, std::max<uint64_t>(scan_warps, 1),
                                  std::max<uint64_t>(4 * scan_warps, 1));
    // Each stream holds a batch of every column.
    const uint64_t per_stream = budget_bytes / kStreamSlots;
    blocks =
        std::min(blocks, std::max<uint64_t>(1, per_stream / std::max<uint64_t>(block_bytes, 1)));
  }
  blocks = std::min(blocks, total_blocks);
  StreamShape shape;
  shape.batch_rows = blocks * kLaneBlockRows;
  shape.batches = (total_blocks + blocks - 1) / blocks;
  shape.streams = static_cast<uint32_t>(std::min<uint64_t>(kStreamSlots, shape.batches));
  return shape;
}

BatchStreamer::BatchStreamer(const cuda::Device& device, cuda::BufferPool& pool,
                             std::vector<const HostColumn*> columns, uint64_t first_row,
                             uint64_t end_row, const StreamShape& shape)
    : device_(device),
      columns_(std::move(columns)),
      first_row_(first_row),
      end_row_(end_row),
      shape_(shape) {
  if (first_row % kLaneBlockRows != 0) {
    throw Error(ErrorKind::Internal, "a streamed scan must start on a 1024-row block");
  }
  shape_.batches =
      end_row > first_row ? (end_row - first_row + shape.batch_rows - 1) / shape.batch_rows : 0;
  slots_.resize(std::max<uint64_t>(1, std::min<uint64_t>(shape_.streams, shape_.batches)));
  for (Slot& slot : slots_) {
    for (const HostColumn* c : columns_) {
      // The largest batch's range: a whole batch from the first row of the part.
      const ByteRange data = c->data_range(first_row, first_row + shape_.batch_rows);
      const ByteRange validity = c->validity_range(first_row, first_row + shape_.batch_rows);
      slot.data.push_back(pool.allocate(data.size(), "a streamed batch of a column"));
      slot.validity.push_back(
          pool.allocate(validity.size(), "a streamed batch of a validity bitmap"));
    }
  }
}

ScanBatch BatchStreamer::copy_batch(RowRange rows, Slot& slot) {
  ScanBatch batch;
  batch.first_row = rows.first;
  batch.rows = rows.rows();
  const uint64_t end = rows.end;
  for (size_t i = 0; i < columns_.size(); ++i) {
    const HostColumn& c = *columns_[i];
    const ByteRange data = c.data_range(batch.first_row, end);
    const auto* host = static_cast<const uint8_t*>(c.data.data());
    slot.data[i].upload(host + data.begin, data.size(), 0, &slot.stream);
    batch.data.push_back(slot.data[i].ptr());
    const ByteRange validity = c.validity_range(batch.first_row, end);
    const auto* bits = static_cast<const uint8_t*>(c.validity.data());
    if (validity.size() > 0)
      slot.validity[i].upload(bits + validity.begin, validity.size(), 0, &slot.stream);
    batch.validity.push_back(validity.size() > 0 ? slot.validity[i].ptr() : 0);
    copied_bytes_ += data.size() + validity.size();
  }
  return batch;
}

std::vector<RowRange> BatchStreamer::batch_ranges() const {
  if (queue_ != nullptr) return taken_;
  std::vector<RowRange> ranges;
  for (uint64_t b = 0; b < shape_.batches; ++b) {
    const uint64_t first = first_row_ + b * shape_.batch_rows;
    ranges.push_back({first, std::min(end_row_, first + shape_.batch_rows)});
  }
  return ranges;
}

void BatchStreamer::take_and_stream(const Launch& launch) {
  // Few batches in flight: a batch taken long before the GPU reaches it is one the other
  // engine could have had. Three keep a copy queued behind the one running.
  constexpr uint64_t kAhead = 3;
  for (uint64_t b = 0;; ++b) {
    if (b >= kAhead) slots_[(b - kAhead) % slots_.size()].stream.synchronize();
    const RowRange rows = queue_->take_front(shape_.batch_rows);
    if (rows.empty()) break;
    taken_.push_back(rows);
    Slot& slot = slots_[b % slots_.size()];
    launch(copy_batch(rows, slot), slot.stream);
  }
  taken_all_ = true;
  shape_.batches = taken_.size();
}

void BatchStreamer::stream(const Launch& launch) {
  device_.make_current();
  if (queue_ != nullptr && !taken_all_) {
    take_and_stream(launch);
  } else {
    const std::vector<RowRange> batches = batch_ranges();
    for (size_t b = 0; b < batches.size(); ++b) {
      Slot& slot = slots_[b % slots_.size()];
      launch(copy_batch(batches[b], slot), slot.stream);
    }
  }
  for (Slot& slot : slots_) slot.stream.synchronize();
}

void BatchStreamer::each_copied(const std::function<void(const ScanBatch&)>& use) {
  device_.make_current();
  for (const RowRange& rows : batch_ranges()) {
    const ScanBatch batch = copy_batch(rows, slots_[0]);
    slots_[0].stream.synchronize();
    use(batch);
  }
}

}  // namespace tally
