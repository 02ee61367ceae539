#include "runtime/gpu/placement.h"

#include <fmt/format.h>

#include "compiler/common/error.h"

namespace tally {

namespace {

constexpr uint64_t kMaxBatchBuffers = uint64_t{2} << 30;  // all streams' batch buffers

uint64_t device_bytes(const Column& column) {
  const uint64_t validity_blocks =
      column.validity_words().empty() ? 0 : (column.size() + 1023) / 1024;
  return PinnedStaging::data_bytes(column) + kBlockPadBytes + validity_blocks * 128;
}

}  // namespace

Placement placement_from_name(const std::string& name) {
  if (name == "auto") return Placement::Auto;
  if (name == "device") return Placement::Device;
  if (name == "host") return Placement::Host;
  throw Error(ErrorKind::Unsupported,
              fmt::format("unknown placement \"{}\" (choose auto, device or host)", name));
}

bool place_on_host(GpuEngine::Impl& engine, const BoundSelect& query, const Table& table,
                   Placement placement) {
  if (placement != Placement::Auto) return placement == Placement::Host;
  uint64_t bytes = 0;
  for (const ScanColumn& s : query.scan) bytes += device_bytes(*table.columns[s.table_column]);
  const uint64_t limit = engine.pool.limit();
  const uint64_t budget = limit > 0 ? limit : engine.device.profile().total_memory;
  return bytes > budget / 2;
}

std::unique_ptr<BatchStreamer> make_streamer(GpuEngine::Impl& engine, const BoundSelect& query,
                                             const Table& table, const GpuPlan& plan,
                                             uint64_t batch_rows, uint64_t first_row,
                                             uint64_t end_row) {
  if (end_row == 0) end_row = table.rows();
  std::vector<const HostColumn*> columns;
  uint64_t block_bytes = 0, tail_bytes = 0;  // a batch's bytes: blocks x block_bytes + tails
  for (const ScanColumn& s : query.scan) {
    const HostColumn& c = engine.host_column(table.columns[s.table_column]);
    columns.push_back(&c);
    block_bytes += layout_offset(*c.column, kLaneBlockRows) + (c.validity.size() > 0 ? 128 : 0);
    tail_bytes += kBlockPadBytes;
  }
  // A quarter of what the budget leaves: the states, hash tables and results come after.
  const uint64_t limit = engine.pool.limit();
  const uint64_t in_use = engine.pool.held_bytes() - engine.pool.cached_bytes();
  const uint64_t free = limit > 0
                            ? limit - std::min(limit, in_use)
                            : engine.device.memory_info().free_bytes + engine.pool.cached_bytes();
  const uint64_t tails = tail_bytes * kStreamSlots;
  const uint64_t budget = std::min(kMaxBatchBuffers, free / 4 - std::min(free / 4, tails));
  const uint64_t warps = uint64_t{plan.grid} * plan.block / 32;
  const StreamShape shape =
      choose_stream_shape(end_row - first_row, block_bytes, warps, budget, batch_rows);
  return std::make_unique<BatchStreamer>(engine.device, engine.pool, std::move(columns), first_row,
                                         end_row, shape);
}

std::string describe_streaming(const StreamShape& shape) {
  return fmt::format("host memory, streamed: {} batches of {} rows on {} streams", shape.batches,
                     shape.batch_rows, shape.streams);
}

}  // namespace tally
