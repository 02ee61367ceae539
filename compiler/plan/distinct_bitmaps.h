// DISTINCT aggregates whose argument has a bounded domain keep the values each group has
// seen as bits of one global bitmap, bit slot * values + (value - base), where the DISTINCT
// set (templates/tally_distinct.cuh) probes 24-byte entries with a CAS: a row reads its bit's
// word (mostly from L1, once the bit is set) and only a first sighting takes an atomic OR,
// whose old word says which row saw the value first.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/column_stats.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

// The most bits all bitmaps of a plan take (128 MiB): past it the rest keep the set.
inline constexpr uint64_t kMaxDistinctBitmapBits = uint64_t{1} << 30;

// Sets plan.distinct_bitmaps for a plan whose slots are fixed (not Hash, whose capacity grows):
// each DISTINCT aggregate with a bounded domain, not kept as one word's bits, in query order
// while the bitmaps fit kMaxDistinctBitmapBits and each is no larger than 1 MiB or the set
// entries its pairs (at most `rows`) would take. The set's capacity becomes 0 when no
// aggregate is left to probe it.
void place_distinct_bitmaps(GpuPlan& plan, const BoundSelect& query,
                            const std::vector<ColumnStats>& stats, uint64_t rows);

// Whether aggregate `a` keeps its values in a bitmap.
inline bool in_distinct_bitmap(const GpuPlan& plan, size_t a) {
  return a < plan.distinct_bitmaps.size() && plan.distinct_bitmaps[a].values > 0;
}

}  // namespace tally
