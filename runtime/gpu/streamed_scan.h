// The streamed Scan of host-resident columns (tome-2018 §4): the rows go to the GPU in
// batches, each batch's columns copied (encoded) on one of several streams and its Scan
// queued behind the copies on the same stream, so the copies of batch i + 1 overlap the
// Scan of batch i. The states live in the same arrays for every batch: Init runs once
// before the first and the Finalizer once after the last (GpuPlan::streamed).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/stream.h"
#include "runtime/gpu/host_columns.h"
#include "runtime/gpu/row_queue.h"

namespace tally {

// A batch of rows as the Scan reads it: each scan column's device addresses (0: none).
struct ScanBatch {
  uint64_t first_row = 0;  // in the table
  uint64_t rows = 0;
  std::vector<uint64_t> data, validity;
};

// Streams a streamed scan uses at most: three or four keep the copy engine busy while a
// batch's Scan runs.
inline constexpr uint32_t kStreamSlots = 4;

struct StreamShape {
  uint64_t batch_rows = 0;  // a multiple of 1024
  uint32_t streams = 0;
  uint64_t batches = 0;
};

// Batches of whole 1024-row blocks: about 16 of them, so that the first copy and the last
// Scan (the parts nothing overlaps) are a small share of the whole; from one to four blocks
// per warp of the Scan's grid (`scan_warps`); all streams' batches of `block_bytes` a block
// within `budget_bytes`. `forced_rows` > 0 sets the batch size (tests, --batch-rows).
StreamShape choose_stream_shape(uint64_t rows, uint64_t block_bytes, uint64_t scan_warps,
                                uint64_t budget_bytes, uint64_t forced_rows);

class BatchStreamer {
 public:
  // Rows [first_row, end_row) of `columns` (the query's scan columns, in scan order;
  // first_row a multiple of 1024), in batches of `shape`.
  BatchStreamer(const cuda::Device& device, cuda::BufferPool& pool,
                std::vector<const HostColumn*> columns, uint64_t first_row, uint64_t end_row,
                const StreamShape& shape);

  // The batches come from `queue` (shared with another engine) instead of the whole range:
  // the first pass takes them as it goes, later passes go over the same ones.
  void take_from(RowQueue* queue) { queue_ = queue; }

  // Every batch in row order: its copies are queued on stream b % streams, then
  // `launch(batch, stream)` queues its kernels behind them. Returns when all are done.
  using Launch = std::function<void(const ScanBatch&, const cuda::Stream&)>;
  void stream(const Launch& launch);
  // Every batch in row order, its columns on the device before `use(batch)` is called
  // (passes that wait on the host between kernels: the projection's).
  void each_copied(const std::function<void(const ScanBatch&)>& use);

  const StreamShape& shape() const { return shape_; }
  uint64_t copied_bytes() const { return copied_bytes_; }

 private:
  struct Slot {
    cuda::Stream stream;
    std::vector<cuda::DeviceBuffer> data, validity;
  };
  ScanBatch copy_batch(RowRange rows, Slot& slot);
  std::vector<RowRange> batch_ranges() const;
  void take_and_stream(const Launch& launch);

  const cuda::Device& device_;
  std::vector<const HostColumn*> columns_;
  uint64_t first_row_, end_row_;
  StreamShape shape_;
  std::vector<Slot> slots_;
  uint64_t copied_bytes_ = 0;
  RowQueue* queue_ = nullptr;
  bool taken_all_ = false;       // the queue has been drained into taken_
  std::vector<RowRange> taken_;  // the batches taken from the queue
};

}  // namespace tally
