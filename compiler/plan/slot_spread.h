// Hot keys that are neighbours (small ids, recent dates: Zipf's ranks 1, 2, 3 as keys 0, 1,
// 2) share a Direct table's cache lines, 16 packed slots to a 128-byte line, so a few lines
// and their L2 slices take most of a skewed Scan's atomics. Multiplying each slot by a number
// prime to the slot count permutes the slots: a line then holds keys from all over the
// domain, and the hot ones spread over L2. On an H200, 2^27 rows of 2^20 keys (Zipf 1.0) took
// 2.59-2.70 ms grouped by col1 and 1.42-1.47 grouped by a bijection of it written in SQL,
// against 1.36 for uniform keys, where spreading changed nothing
// (bench/RESULTS_groupby_sweep.md, session 35).
#pragma once

#include <cstdint>
#include <string>

#include "compiler/ir/query.h"
#include "compiler/plan/gpu_plan.h"
#include "compiler/plan/l2_slices.h"

namespace tally {

// Whether `plan` could spread its slots: a Direct plan in one pass over more than one block
// table's slots and fewer than 2^32 (the products stay in 64 bits).
bool may_spread_slots(const GpuPlan& plan, const BoundSelect& query);

// The plan with its slots spread (GpuPlan::spread_multiplier) where the keys of the rows in
// flight together span most of the table; sorted or clustered keys keep their neighbours on
// shared lines, where a warp's merges coalesce. `considered` says which.
GpuPlan with_spread_slots(GpuPlan plan, const KeyLocality& locality);

// The multiplier that undoes the spread: the Finalizer's slot * inverse % slots is the keys'
// mixed-radix value.
uint64_t spread_inverse(const GpuPlan& plan);

}  // namespace tally
