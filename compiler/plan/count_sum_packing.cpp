#include "compiler/plan/count_sum_packing.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/plan/expr_facts.h"
#include "compiler/plan/value_bounds.h"

namespace tally {

namespace {

constexpr long double kPackedRange = 4294967296.0L;  // 2^32: the sum's half of the word
constexpr uint32_t kCacheProbesHoldingKeys = 4;

// The offset that brings the aggregate's values into [0, 2^32), if there is one.
bool packable_values(const AggregateCall& call, const BoundSelect& query,
                     const std::vector<ColumnStats>& stats, int64_t& offset, uint64_t& largest) {
  if (!call.arg || call.distinct || call.key) return false;
  const ValueBounds v = value_bounds(*call.arg, stats);
  if (!v.known || v.hi - v.lo >= kPackedRange) return false;
  if (v.lo >= 0 && v.hi < kPackedRange) {
    offset = 0;
    largest = static_cast<uint64_t>(v.hi);
    return true;
  }
  // A NULL adds nothing to the sum but one to the row count, which the offset goes back by.
  if (may_be_null(*call.arg, query, stats) || v.lo < -9.2e18L) return false;
  offset = static_cast<int64_t>(v.lo);
  largest = static_cast<uint64_t>(v.hi - v.lo);
  return true;
}

// The low-count layout for `rows` rows and addends up to `largest`, unless a group of the
// plan's average size comes within 8x of the rows a sum stays exact for.
void choose_layout(CountSumPacking& p, const GpuPlan& plan, uint64_t largest) {
  if (plan.packed_sum_carries) return;
  uint32_t bits = 1;
  while (bits < 63 && (1ull << bits) <= plan.rows) ++bits;
  const uint64_t sum_range = ~0ull >> bits;  // 2^(64 - bits) - 1
  const uint64_t exact_rows = largest == 0 ? ~0ull : sum_range / largest;
  const uint64_t average = plan.rows / std::max<uint64_t>(plan.slots, 1);
  if (exact_rows / 8 < average) return;
  p.count_bits = bits;
  // Every group is exact when the whole table's sum fits.
  p.exact_rows = exact_rows >= plan.rows ? ~0ull : exact_rows;
}

// The low-count layout with some group's sum not proved exact.
bool may_wrap(const CountSumPacking& p) {
  return p.packs() && p.count_bits > 0 && p.exact_rows != ~0ull;
}

}  // namespace

CountSumPacking count_sum_packing(const GpuPlan& plan, const BoundSelect& query,
                                  const std::vector<ColumnStats>& stats) {
  CountSumPacking packing;
  const bool global = plan.strategy == GpuStrategy::Direct || plan.strategy == GpuStrategy::Hash;
  if (!global || plan.projection || plan.layout.second_pass() || plan.rows >= (1ull << 31)) {
    return packing;
  }
  const auto& fields = plan.layout.fields;
  for (size_t f = 1; f < fields.size(); ++f) {
    if (fields[f].kind != FieldKind::SumI128) continue;
    int64_t offset = 0;
    uint64_t largest = 0;
    if (!packable_values(query.aggregates.at(static_cast<size_t>(fields[f].aggregate)), query,
                         stats, offset, largest)) {
      continue;
    }
    packing.field = static_cast<int>(f);
    packing.offset = offset;
    choose_layout(packing, plan, largest);
    return packing;
  }
  return packing;
}

bool packed_sum_may_wrap(const GpuPlan& plan, const BoundSelect& query,
                         const std::vector<ColumnStats>& stats) {
  return may_wrap(count_sum_packing(plan, query, stats));
}

GpuPlan with_hot_group_carries(GpuPlan plan, const BoundSelect& query,
                               const std::vector<ColumnStats>& stats, uint64_t hottest_rows,
                               uint64_t sampled_keys, const std::string& evidence) {
  const CountSumPacking packing = count_sum_packing(plan, query, stats);
  if (!may_wrap(packing)) return plan;
  // Half the exact rows: the sample's share is itself an estimate.
  const uint64_t exact_rows = packing.exact_rows;
  if (hottest_rows <= exact_rows / 2) return plan;
  // Few keys in all: a block cache takes the hot ones in before its slots fill, so their rows
  // stay out of the word (Zipf 1.5 never wrapped; Zipf 1.0's many cold keys crowd them out).
  // With two probes a hot key whose two slots hotter keys hold missed the cache in every block
  // (Zipf 1.5 over 2^17 keys wrapped on an H200); four make that about (50 / 1,024)^4, and
  // cost less than eight, which every row of a key the full cache turns away pays.
  if (plan.block_cache_slots > 0 && sampled_keys <= plan.block_cache_slots) {
    plan.block_cache_probes = kCacheProbesHoldingKeys;
    plan.reason += fmt::format(
        "; the packed sum keeps its low count: the block cache holds the {} sampled keys ({} "
        "probes a key)",
        sampled_keys, plan.block_cache_probes);
    return plan;
  }
  plan.packed_sum_carries = true;
  plan.reason += fmt::format(
      "; the packed sum carries: a key may hold about {} rows, more than half the {} a "
      "low-count sum is exact for ({})",
      hottest_rows, exact_rows, evidence);
  return plan;
}

std::string describe_count_sum_packing(const GpuPlan& plan, const BoundSelect& query,
                                       const std::vector<ColumnStats>& stats) {
  const CountSumPacking p = count_sum_packing(plan, query, stats);
  if (!p.packs()) return "";
  const auto& call =
      query.aggregates.at(static_cast<size_t>(plan.layout.fields[p.field].aggregate));
  const std::string offset = p.offset == 0 ? "" : fmt::format(" less {}", p.offset);
  if (p.count_bits == 0) {
    return fmt::format(
        "  packed: the row count and {}{} in one 64-bit word a slot, the count above bit 32, "
        "the sum's carries counted apart\n",
        call.text, offset);
  }
  const std::string exact =
      p.exact_rows == ~0ull
          ? "exact for every group"
          : fmt::format("a group past {} rows runs again with carries", p.exact_rows);
  return fmt::format(
      "  packed: the row count and {}{} in one 64-bit word a slot, the count in the low {} bits "
      "({})\n",
      call.text, offset, p.count_bits, exact);
}

}  // namespace tally
