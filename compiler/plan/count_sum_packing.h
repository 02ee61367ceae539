// One global atomic a row where a global table keeps a row count and a narrow sum: the Scan
// adds 2^32 + (value - offset) to one 64-bit word per slot instead of adding to the count and
// the sum apart, which halves the atomics that bound Direct and Hash plans from about 2^16
// groups on (bench/RESULTS_groupby_sweep.md, the packed peer). A sum's low 32 bits may carry
// into the count: the add that carries sees it in the old word the atomic returns and counts
// it in a carry array, and the Finalizer takes the carries out of the count and adds them to
// the sum (templates/tally_atomics.cuh packed_count_sum_add) before it reads either field.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/column_stats.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

struct CountSumPacking {
  int field = -1;      // the sum field packed beside the row counter (field 0); -1: none
  int64_t offset = 0;  // subtracted from each value so that what is packed is in [0, 2^32)
  bool packs() const { return field > 0; }
};

// Whether and how the plan's global tables pack the row count with a sum: Direct and Hash
// plans of one pass over fewer than 2^31 rows (counts and carries stay below 2^32), with a
// plain exact SUM whose values the statistics bound to a 2^32 range (a nullable one from 0,
// since the offset is taken back once per row counted).
CountSumPacking count_sum_packing(const GpuPlan& plan, const BoundSelect& query,
                                  const std::vector<ColumnStats>& stats);

}  // namespace tally
