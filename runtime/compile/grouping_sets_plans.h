// The plans SET grouping_sets = 'auto' chooses between (compiler/plan/grouping_sets_choice.h),
// made as the GPU engine makes them but not compiled: the one pass over every set, and each
// set's own GROUP BY. No GPU is needed: the options carry the device's limits and profile.
#pragma once

#include "compiler/ir/query.h"
#include "compiler/plan/grouping_sets_choice.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/storage/table.h"

namespace tally {

// Plans `query`'s one pass and each of its sets over `table` with `options`, and chooses
// between the two ways. Where the one pass has no plan (Error(Unsupported): say, keys too
// wide beside the set id) a pass per set, that error the reason; where a set has none (the
// GPU would not run it alone), one pass.
GroupingSetsChoice plan_grouping_sets_way(const BoundSelect& query, const Table& table,
                                          const GpuCompileOptions& options);

}  // namespace tally
