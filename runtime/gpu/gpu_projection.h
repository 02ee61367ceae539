// The GPU execution of a query without GROUP BY or aggregates (GpuPlan::projection): the
// count pass, an exclusive scan of its block counts on the host, output columns sized from
// the total, the write pass, and the download (compiler/codegen/projection_kernels.cpp generates
// the kernels). ORDER BY, OFFSET and LIMIT follow on the host, as for the CPU engine.
#pragma once

#include <vector>

#include "runtime/gpu/gpu_engine_impl.h"

namespace tally {

// Every output (hidden sort-only ones too) of each passing row, in input row order. Throws
// the CPU engine's error when a passing row raises one.
std::vector<std::vector<Value>> run_projection(const GpuRunInputs& in, const GpuCompilation& c,
                                               GpuRunReport& report);

// The same over host-resident columns, one batch after another, the rows in input order.
std::vector<std::vector<Value>> run_projection_batches(const GpuRunInputs& in,
                                                       BatchStreamer& streamer,
                                                       const GpuCompilation& c,
                                                       GpuRunReport& report);

}  // namespace tally
