// ORDER BY ... LIMIT over a GPU result before it becomes Values: when every ORDER BY key
// is a plain group key or aggregate of a non-string type, the groups the LIMIT keeps are
// chosen from the raw result cells on all cores, and only they are decoded and evaluated.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/common/value.h"
#include "compiler/ir/query.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

// A result as the Finalizer wrote it: group g's key i at keys[g * key_count + i], its
// aggregate i at values[g * aggregate_count + i], each with a NULL flag.
struct ResultCells {
  uint64_t groups = 0;
  size_t key_count = 0, aggregate_count = 0;
  const int128* keys = nullptr;
  const uint8_t* key_nulls = nullptr;
  const int128* values = nullptr;
  const uint8_t* value_nulls = nullptr;
};

// The first `needed` groups in ORDER BY order, ties in group order (what a stable sort of
// all the groups' rows would keep), or nullopt when the query's ORDER BY, HAVING (on the
// host) or DISTINCT needs the evaluated rows (compiler/plan/result_order.h).
std::optional<std::vector<uint64_t>> first_groups_in_order(const BoundSelect& query,
                                                           const GpuPlan& plan,
                                                           const ResultCells& cells, size_t needed);

}  // namespace tally
