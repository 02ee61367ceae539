// The CPU engine's vectorized path for aggregated queries: scan -> optional filter -> GROUP
// BY keys (or none) -> aggregates (typed for COUNT / SUM / AVG / MIN / MAX, the row path's
// states for the others: runtime/cpu/vector_aggs.h). Each worker claims morsels,
// decodes them in batches straight from the column encodings, evaluates the filter into a
// selection, the keys and arguments with typed batch operators (runtime/cpu/vector_expr.h),
// numbers the groups in a direct or hash table (runtime/cpu/vector_groups.h) and updates
// typed states (runtime/cpu/vector_aggs.h); the workers' groups then combine and finish as
// the row path's do (runtime/cpu/partial_groups.h). Results, NULLs and errors are the row
// path's; tests/unit/cpu_vector_test.cpp checks them against it on random queries.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/query.h"
#include "runtime/cpu/cpu_options.h"
#include "runtime/cpu/partial_groups.h"
#include "runtime/result/result.h"
#include "runtime/storage/table.h"

namespace tally {

// Why the vector path does not run `query` (nullopt: it does). Decided before any row is
// read, from the query's shape alone.
std::optional<std::string> vector_path_unsupported(const BoundSelect& query, const Table* table);

// The merged states per group of `query` over `table` (the vector path must support it).
PartialGroups run_vector_path(const BoundSelect& query, const Table& table,
                              const std::vector<Value>& parameters, const CpuOptions& options,
                              std::shared_ptr<StringHeap> strings);

// The result of `query` over `table`, as finish_partial_groups(run_vector_path(...)) gives
// it, with the finals computed group by group rather than from every group's states.
Result run_vector_query(const BoundSelect& query, const Table& table,
                        const std::vector<Value>& parameters, const CpuOptions& options,
                        std::shared_ptr<StringHeap> strings);

}  // namespace tally
