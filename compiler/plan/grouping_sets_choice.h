// SET grouping_sets = 'auto' on the GPU: all sets in one pass over the rows (the set id one
// more key, compiler/ir/grouping_sets.h) or one GROUP BY pass per set, chosen before running
// from the plans of both ways. One pass reads the rows once but merges each row into one
// group per set, on the product of every set's key domains; per set reads them once a set,
// each pass on its own set's domain. Measured on an H100 (bench/RESULTS.md "grouping_sets"),
// one pass wins where its groups stay on chip and loses up to 9x where they go to global
// memory while some set's would not.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/plan/gpu_plan.h"
#include "compiler/plan/strategy_rates.h"

namespace tally {

struct GroupingSetsChoice {
  bool one_pass = true;
  std::string reason;  // why this way: for --explain and the notice of a per-set run
  // One line a pass of each way (strategy, groups and, from a device profile, the estimate),
  // each ending in a newline.
  std::string ways;
};

// Between the one-pass plan and each set's plan (in set order), all planned for the same rows.
// With `rates` (a device profile; may be null) that measured every pass's strategy at its key
// domain, the way whose passes sum to the shorter estimated time: rows / rate a pass, the one
// pass's rows counted once a set where its groups are in global memory (each row's merges
// are global atomics there; on chip the read bounds it). Else one pass where its plan keeps
// the groups on chip (thread or block), or where no set's plan does either; per set otherwise.
GroupingSetsChoice choose_grouping_sets_way(const GpuPlan& one_pass,
                                            const std::vector<GpuPlan>& sets,
                                            const StrategyRates* rates);

// The groups a plan's keys can take: the product of their radices (what the planner asks a
// device profile about), or nullopt where a key is hashed by value.
std::optional<uint64_t> plan_key_domain(const GpuPlan& plan);

}  // namespace tally
