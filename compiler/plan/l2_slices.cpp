#include "compiler/plan/l2_slices.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "compiler/functions/aggregate_state.h"
#include "compiler/ir/grouping_sets.h"
#include "compiler/plan/block_cache_choice.h"
#include "compiler/plan/count_sum_packing.h"

namespace tally {

namespace {

// A pass may fill this share of L2: the sliced peer's passes of a third (16 MB of an H100's
// 50) ran as fast as one pass over a table of that size, and half-L2 slices slower.
constexpr uint64_t kL2Share = 3;
// A merge that misses L2 costs about what reading 150 bytes does (H100: ~50 ps a row more
// than a hit, against 0.32 ps a byte read), so slices pay while each extra pass re-reads
// less than half that per merge.
constexpr uint64_t kRereadBytesPerMiss = 75;

bool eligible(const GpuPlan& plan, const BoundSelect& query) {
  return plan.strategy == GpuStrategy::Direct && !plan.sliced() && !plan.projection &&
         !plan.layout.sketches() && !is_one_pass_grouping_query(query) && plan.slots < (1ull << 32);
}

// Bits of encoded column data a row reads, NULL flags included.
uint64_t row_bits(const BoundSelect& query, const std::vector<ColumnStats>& stats) {
  uint64_t bits = 0;
  for (size_t c = 0; c < query.scan.size() && c < stats.size(); ++c) {
    const ColumnStats& s = stats[c];
    bits += s.layout == ColumnStats::Layout::BitPacked ? static_cast<uint64_t>(s.bits)
                                                       : 8 * static_cast<uint64_t>(s.plain_width);
    bits += s.has_nulls ? 1 : 0;
  }
  return bits;
}

// Global merges a row makes in the first pass (the packed count and sum one).
uint64_t merges_per_row(const GpuPlan& plan, const CountSumPacking& packing) {
  uint64_t merges = 0;
  for (const StateField& f : plan.layout.fields) merges += !field_info(f.kind).second_pass;
  return packing.packs() ? merges - 1 : merges;
}

uint64_t merged_bytes(const GpuPlan& plan, const CountSumPacking& packing) {
  uint64_t bytes = packing.packs() ? sizeof(uint64_t) : 0;
  const auto& fields = plan.layout.fields;
  for (size_t f = 0; f < fields.size(); ++f) {
    const bool in_packed_word = packing.packs() && (f == 0 || static_cast<int>(f) == packing.field);
    if (in_packed_word || field_info(fields[f].kind).second_pass) continue;
    bytes += static_cast<uint64_t>(field_info(fields[f].kind).bytes);
  }
  return bytes;
}

uint64_t l2_budget(const DeviceLimits& limits) { return limits.l2_bytes / kL2Share; }

bool passes_budget(const GpuPlan& plan, uint64_t per_slot, const DeviceLimits& limits) {
  return per_slot > 0 && plan.slots > l2_budget(limits) / per_slot;
}

}  // namespace

uint64_t merged_bytes_per_slot(const GpuPlan& plan, const BoundSelect& query,
                               const std::vector<ColumnStats>& stats) {
  return merged_bytes(plan, count_sum_packing(plan, query, stats));
}

bool l2_slices_may_pay(const GpuPlan& plan, const BoundSelect& query,
                       const std::vector<ColumnStats>& stats, const DeviceLimits& limits) {
  return eligible(plan, query) &&
         passes_budget(plan, merged_bytes_per_slot(plan, query, stats), limits);
}

GpuPlan with_l2_slices(GpuPlan plan, const BoundSelect& query,
                       const std::vector<ColumnStats>& stats, const DeviceLimits& limits,
                       const KeyLocality& locality) {
  if (!eligible(plan, query)) return plan;
  const CountSumPacking packing = count_sum_packing(plan, query, stats);
  const uint64_t per_slot = merged_bytes(plan, packing);
  if (!passes_budget(plan, per_slot, limits)) return plan;
  const uint64_t budget = l2_budget(limits);
  const uint64_t slice_slots = std::bit_floor(std::max<uint64_t>(budget / per_slot, 1));
  const uint64_t slices = (plan.slots + slice_slots - 1) / slice_slots;
  const uint64_t reread_bits = (slices - 1) * row_bits(query, stats);
  const uint64_t merges = merges_per_row(plan, packing);
  const uint64_t window_slots = std::min(locality.window_slots, plan.slots);
  const bool merge_in_l2 = window_slots <= budget / per_slot;
  const bool skewed = !sampled_keys_scattered(locality.distinct, locality.sampled, plan.slots);
  std::string verdict;
  if (merge_in_l2) {
    verdict = "not taken: the rows in flight merge within L2 already";
  } else if (skewed) {
    verdict = "not taken: the keys are skewed, and the hot ones merge within L2 already";
  } else if (slices > kMaxL2Slices) {
    verdict = fmt::format("not taken: more than {} passes", kMaxL2Slices);
  } else if (reread_bits > 8 * kRereadBytesPerMiss * merges) {
    verdict = fmt::format("not taken: re-reading {} bytes a row costs more than {} misses save",
                          reread_bits / 8, merges);
  } else {
    verdict = "taken";
    plan.scan_slices = static_cast<uint32_t>(slices);
    plan.slice_slots = slice_slots;
    plan.reason +=
        fmt::format("; {} passes over slices of {} slots that fit L2", slices, slice_slots);
  }
  plan.considered += fmt::format(
      "              L2 slices: {} of {} slots ({} bytes a slot merged, {} bytes a pass may fill "
      "of {} in L2; the keys of {} consecutive rows span {} slots, {} of {} sampled keys "
      "distinct), {}\n",
      slices, slice_slots, per_slot, budget, limits.l2_bytes, std::min(plan.rows, kRowsInFlight),
      window_slots, locality.distinct, locality.sampled, verdict);
  // Scattered keys over a table past L2 have no hot groups for a block's cache: a block saw
  // 1,024 of 2^24 keys once each and flushed them to random slots of unpacked fields in DRAM.
  if (!merge_in_l2 && !skewed) {
    return without_block_cache(std::move(plan), "the sampled keys are scattered and do not repeat");
  }
  return plan;
}

}  // namespace tally
