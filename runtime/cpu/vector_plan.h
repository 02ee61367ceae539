// What the vector path decides once per query, before the scan: which scan columns the
// filter reads (decoded for every row) and which the rest read (decoded for the selected
// rows only), how each group key is held, and whether the keys fit a direct table.
#pragma once

#include <optional>
#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/column_stats.h"
#include "runtime/cpu/vector_expr.h"
#include "runtime/cpu/vector_groups.h"
#include "runtime/storage/table.h"

namespace tally {

struct VectorPlan {
  std::vector<bool> filter_reads;  // per scan column
  std::vector<bool> others_read;   // per scan column: keys or arguments
  // Per key: the string scan column whose codes are the key (grouped by code, mapped to
  // heap ids at the end), or -1 for a key evaluated by operators.
  std::vector<int> key_codes;
  std::vector<Phys> key_phys;
  bool keys_nullable = false;
  std::optional<std::vector<KeyDomain>> direct;  // set: group in a direct table
};

// `env` has the stats, parameters and strings the plan is made with.
VectorPlan plan_vector(const BoundSelect& query, const Table& table, const VecEnv& env,
                       size_t state_bytes);

}  // namespace tally
