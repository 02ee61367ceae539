// Where a query's columns live while it runs (GpuRunOptions::placement), and the batches of
// a streamed scan over the columns kept in host memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "runtime/gpu/gpu_engine_impl.h"

namespace tally {

// Auto: host memory when the query's columns take more than half the device memory budget
// (the limit, or the device's memory), so that states, tables and results still fit.
bool place_on_host(GpuEngine::Impl& engine, const BoundSelect& query, const Table& table,
                   Placement placement);

// Rows [first_row, end_row) of the query's columns (end_row 0: the table's end), from their
// host-resident copies, in batches shaped for the plan's grid and the memory budget;
// `batch_rows` > 0 forces the batch size.
std::unique_ptr<BatchStreamer> make_streamer(GpuEngine::Impl& engine, const BoundSelect& query,
                                             const Table& table, const GpuPlan& plan,
                                             uint64_t batch_rows, uint64_t first_row = 0,
                                             uint64_t end_row = 0);

std::string describe_streaming(const StreamShape& shape);

}  // namespace tally
