// One global atomic a row where a global table keeps a row count and a narrow sum: the Scan
// adds to one 64-bit word per slot instead of to the count and the sum apart, which halves the
// atomics that bound Direct and Hash plans from about 2^16 groups on
// (bench/RESULTS_groupby_sweep.md, the packed peers). Two layouts:
// - low count: the count in the low bits (as many as the table's rows need, so it never
//   carries), the sum above them modulo the rest. The add's result is unused (a RED). A sum is
//   exact while its group's count times the largest addend fits; where the Finalizer finds a
//   group past that it raises kStatusPackedSumAmbiguous and the host reruns with
//   GpuPlan::packed_sum_carries.
// - carries: the count above bit 32 and the sum below; the add that carries into the count
//   sees it in the word the atomic returns and counts it apart. Always exact, and slower: the
//   thread waits for the returned word.
// The Finalizer takes the rows and the sum back into the fields before it reads either.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/column_stats.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

struct CountSumPacking {
  int field = -1;      // the sum field packed beside the row counter (field 0); -1: none
  int64_t offset = 0;  // subtracted from each value so that what is packed is in [0, 2^32)
  // The low-count layout's count bits (0: the carrying layout), and the most rows a group's
  // sum is exact for (UINT64_MAX: every group, by the statistics).
  uint32_t count_bits = 0;
  uint64_t exact_rows = 0;
  bool packs() const { return field > 0; }
};

// Whether and how the plan's global tables pack the row count with a sum: Direct and Hash
// plans of one pass over fewer than 2^31 rows (counts and carries stay below 2^32), with a
// plain exact SUM whose values the statistics bound to a 2^32 range (a nullable one from 0,
// since the offset is taken back once per row counted). The low-count layout unless the plan
// asks for carries, or its groups' average rows come within 8x of what a sum is exact for.
CountSumPacking count_sum_packing(const GpuPlan& plan, const BoundSelect& query,
                                  const std::vector<ColumnStats>& stats);

// The plan with the carrying layout where a sample says one group may pass the rows the
// low-count layout's sum is exact for (`hottest_rows`: the sample's most frequent key's share
// of the table, in rows; skewed keys), which would cost a second Scan with carries, unless
// the sample's `sampled_keys` distinct keys fit the plan's block cache; `evidence` says what
// was sampled.
GpuPlan with_hot_group_carries(GpuPlan plan, const BoundSelect& query,
                               const std::vector<ColumnStats>& stats, uint64_t hottest_rows,
                               uint64_t sampled_keys, const std::string& evidence);

// Whether the plan packs in the low-count layout with groups whose sums it may not hold: the
// case with_hot_group_carries weighs.
bool packed_sum_may_wrap(const GpuPlan& plan, const BoundSelect& query,
                         const std::vector<ColumnStats>& stats);

// For --explain: a line saying which sum shares the row count's word and in which layout, or
// "" where none does.
std::string describe_count_sum_packing(const GpuPlan& plan, const BoundSelect& query,
                                       const std::vector<ColumnStats>& stats);

}  // namespace tally
