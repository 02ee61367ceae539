// A SELECT parsed and bound once and executed many times with new parameter values: the
// unit behind `tally prepare`/`tally exec` and the library's PreparedStatement. What
// depends on the data (column statistics, GPU strategy, table sizes) is still decided at
// each execution; what depends only on the statement is done here once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/bind/catalog.h"
#include "compiler/ir/query.h"
#include "runtime/compile/gpu_plan_cache.h"

namespace tally {

struct PreparedSelect {
  std::string sql;
  BoundSelect query;
  // The schema the query was bound against: a table replaced by one of another shape
  // makes the statement rebind (the column indexes in `query` would be stale).
  TableSchema bound_schema;
  // Generated programs and binaries by plan, shared by every execution (and thread): a
  // second execution whose data gives the same plan skips code generation and compiling.
  std::shared_ptr<GpuPlanCache> plans = std::make_shared<GpuPlanCache>();

  const std::vector<Type>& parameter_types() const { return query.parameter_types; }
};

}  // namespace tally
