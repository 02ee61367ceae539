// The CPU engine: runs a BoundSelect over a table with all cores. It is the reference
// every GPU result is compared with. Its row path (here) is plain, exact code; the common
// aggregate shape runs on its vector path (runtime/cpu/vector_engine.h), which gives the
// row path's results and errors (CpuOptions::path chooses).
#pragma once

#include <vector>

#include "compiler/ir/query.h"
#include "runtime/cpu/cpu_options.h"
#include "runtime/cpu/partial_groups.h"
#include "runtime/result/result.h"
#include "runtime/storage/table.h"

namespace tally {

// `table` may be null when the query has no FROM (one input row). `parameters` are
// already converted to query.parameter_types.
Result run_cpu(const BoundSelect& query, const Table* table, const std::vector<Value>& parameters,
               const CpuOptions& options = {});

// An aggregated query over `table` (null: no FROM) to its merged states per group, before
// the final step (runtime/cpu/partial_groups.h combines and finishes them). `parameters`:
// the values of its `?`s. Throws Error(Unsupported) for a query without aggregates or
// GROUP BY.
PartialGroups run_cpu_partial(const BoundSelect& query, const Table* table,
                              const CpuOptions& options = {},
                              const std::vector<Value>& parameters = {});

}  // namespace tally
