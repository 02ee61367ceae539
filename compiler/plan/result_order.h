// An ORDER BY read straight from the Finalizer's result cells, without evaluating the rows:
// both the device top-k (compiler/codegen/top_k_kernel.h) and the host's selection from
// downloaded cells (runtime/gpu/result_top_k.h) take their groups this way.
#pragma once

#include <optional>
#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

// One ORDER BY key as the cell it reads: group key or aggregate `index`, decoded as `type`.
struct OrderCell {
  bool aggregate = false;
  int index = 0;
  Type type;
};

// The cells of the query's ORDER BY keys, in order, or nullopt when the rows must be
// evaluated first: no ORDER BY, HAVING the host evaluates (not GpuPlan::having_on_device()),
// DISTINCT or DISTINCT ON, a key that is an expression over the outputs, a string (cells
// hold dictionary codes or domain ids, not string order).
std::optional<std::vector<OrderCell>> result_order_cells(const BoundSelect& query,
                                                         const GpuPlan& plan);

}  // namespace tally
