// ORDER BY ... LIMIT chosen on the device (templates/tally_top_k.cuh): the generated
// tally_top_k kernel, emitted beside the Finalizer when every ORDER BY key is a result cell
// the device can compare, so that a large result never crosses the bus whole.
#pragma once

#include <cstdint>

#include "compiler/codegen/source_writer.h"
#include "compiler/ir/query.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

inline constexpr const char* kTopKKernelName = "tally_top_k";
// The most rows (OFFSET + LIMIT) the device top-k keeps: templates/tally_top_k.cuh kTopKMax.
inline constexpr uint64_t kDeviceTopKMax = 32;
// ORDER BY keys it compares: two order-flag bits a key in one 32-bit word.
inline constexpr size_t kDeviceTopKMaxKeys = 16;

// The kernel's argument words, in templates/tally_top_k.cuh's TopKArg order.
enum class TopKArg : int {
  Keys,
  KeyNulls,
  Values,
  ValueNulls,
  KeyCount,
  ValueCount,
  Groups,
  Candidates,
  K,
  Out,
  GatherKeys,
  GatherKeyNulls,
  GatherValues,
  GatherValueNulls,
  OrderFlags,
  SampleStride,
  Threshold,
  CandidateCount,
  CandidateCapacity,
  Count
};

// The run's order flags: two bits a key, 1 descending and 2 NULLs first.
uint32_t top_k_order_flags(const BoundSelect& query);

// Writes tally_top_k when the query's ORDER BY can be chosen on the device; false (nothing
// written) when a key is a string, an expression over the outputs, or the query has HAVING
// the host evaluates, DISTINCT or DISTINCT ON (they need the evaluated rows), or no LIMIT.
bool write_top_k_kernel(const BoundSelect& query, const GpuPlan& plan, SourceWriter& w);

}  // namespace tally
