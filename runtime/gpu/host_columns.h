// Host-resident columns: a column's device layout (runtime/gpu/device_layout.h) kept in
// pinned host memory, so that a batch of its rows crosses the bus encoded, as one
// asynchronous copy, while the Scan of the batch before runs (tome-2018 §4, streaming).
#pragma once

#include <cstdint>

#include "runtime/cuda/memory.h"
#include "runtime/storage/column.h"

namespace tally {

// The zeroed tail every column carries on the device: the scan decodes whole 1024-row
// blocks before it drops rows past the end (16-byte values), and a bit-packed field read
// may look 64 words further.
inline constexpr uint64_t kBlockPadBytes = 1024 * 16;

struct ByteRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint64_t size() const { return end - begin; }
};

struct HostColumn {
  ColumnPtr column;             // keeps the cache's key unique while cached
  cuda::PinnedBuffer data;      // the device layout, then kBlockPadBytes of zeros
  cuda::PinnedBuffer validity;  // validity words over whole blocks; empty when no NULLs
  uint64_t data_bytes = 0;      // of the layout, without the tail
  uint64_t last_query = 0;      // the query that last read it (least recently used goes first)

  // What the Scan of rows [first_row, end_row) reads, first_row a multiple of 1024: the
  // layout's bytes of those rows' blocks and the tail behind them (the next rows' bytes,
  // or the zeros after the last), and their validity words.
  ByteRange data_range(uint64_t first_row, uint64_t end_row) const;
  ByteRange validity_range(uint64_t first_row, uint64_t end_row) const;
};

// The device layout's byte offset of row `row` (a multiple of 1024) of `column`.
uint64_t layout_offset(const Column& column, uint64_t row);

// The column's device layout in pinned memory, written on all cores.
HostColumn make_host_column(const ColumnPtr& column);

}  // namespace tally
