#include "compiler/plan/distinct_bitmaps.h"

#include <algorithm>

#include "compiler/plan/state_layout.h"

namespace tally {

namespace {

// A set entry is 24 bytes and the set keeps twice the pairs it expects.
constexpr long double kSetBitsPerPair = 2 * 24 * 8;
constexpr uint64_t kAlwaysSmallBits = uint64_t{8} << 20;  // 1 MiB

uint64_t round_to_word(uint64_t bits) { return (bits + 31) / 32 * 32; }

// Whether some DISTINCT aggregate keeps its values in the set.
bool probes_distinct_set(const BoundSelect& query, const GpuPlan& plan) {
  for (size_t a = 0; a < query.aggregates.size(); ++a) {
    if (keeps_seen_values(query, plan.layout, a) && !in_distinct_bitmap(plan, a)) return true;
  }
  return false;
}

}  // namespace

void place_distinct_bitmaps(GpuPlan& plan, const BoundSelect& query,
                            const std::vector<ColumnStats>& stats, uint64_t rows) {
  plan.distinct_bitmaps.clear();
  plan.distinct_bitmap_words = 0;
  if (plan.strategy == GpuStrategy::Hash || plan.projection) return;
  std::vector<DistinctBitmap> bitmaps(query.aggregates.size());
  uint64_t total = 0;
  for (size_t a = 0; a < query.aggregates.size(); ++a) {
    if (!keeps_seen_values(query, plan.layout, a)) continue;
    const std::optional<DistinctDomain> domain = distinct_domain(query.aggregates[a], stats);
    if (!domain) continue;
    const long double bits = static_cast<long double>(plan.slots) * domain->values;
    const long double pairs = std::min<long double>(std::max<uint64_t>(rows, 1), bits);
    if (total + bits > kMaxDistinctBitmapBits) continue;
    if (bits > kAlwaysSmallBits && bits > pairs * kSetBitsPerPair) continue;
    bitmaps[a] = {domain->base, domain->values, total};
    total = round_to_word(total + static_cast<uint64_t>(bits));
  }
  if (total == 0) return;
  plan.distinct_bitmaps = std::move(bitmaps);
  plan.distinct_bitmap_words = total / 32;
  if (!probes_distinct_set(query, plan)) plan.distinct_capacity = 0;
}

}  // namespace tally
