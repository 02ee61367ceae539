// The CPU engine: runs a BoundSelect over a table with all cores. It is the reference
// every GPU result is compared with, so it favours plain, exact code over speed tricks.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "compiler/ir/query.h"
#include "runtime/cpu/partial_groups.h"
#include "runtime/result/result.h"
#include "runtime/storage/table.h"

namespace tally {

struct CpuOptions {
  unsigned threads = 0;  // 0: one per hardware thread
  size_t morsel_rows = 16384;
  // Heap that VARCHAR parameter values point into; the result's strings live here too.
  std::shared_ptr<StringHeap> strings;
  // Asked before each morsel: true stops the query with Error(Cancelled).
  std::function<bool()> cancelled = {};
  // Told after each morsel: rows scanned so far, and in all (calls are serialised).
  std::function<void(uint64_t done, uint64_t total)> progress = {};
};

// `table` may be null when the query has no FROM (one input row). `parameters` are
// already converted to query.parameter_types.
Result run_cpu(const BoundSelect& query, const Table* table, const std::vector<Value>& parameters,
               const CpuOptions& options = {});

// An aggregated query without parameters over `table` (null: no FROM) to its merged states
// per group, before the final step (runtime/cpu/partial_groups.h combines and finishes
// them). Throws Error(Unsupported) for a query without aggregates or GROUP BY.
PartialGroups run_cpu_partial(const BoundSelect& query, const Table* table,
                              const CpuOptions& options = {});

}  // namespace tally
