#include "bench/groupby_check.h"

#include <fmt/format.h>

#include <stdexcept>

namespace tally::bench {

namespace {

// The group index of a result row: the key itself, kind two's ka + K1 * kb, or the number
// that string_pool wrote after the "k".
uint64_t group_of(const Result& r, size_t row, const Point& p, KeyKind kind) {
  if (kind == KeyKind::String) return std::stoull(r.cell_text(row, 0).substr(1));
  auto g = static_cast<uint64_t>(r.rows[row][0].i);
  if (kind == KeyKind::Two) g += p.k1 * static_cast<uint64_t>(r.rows[row][1].i);
  return g;
}

}  // namespace

GroupTotals host_totals(const Point& point, const std::vector<int32_t>& values) {
  GroupTotals t{std::vector<uint64_t>(point.k), std::vector<int64_t>(point.k)};
  for (size_t row = 0; row < values.size(); ++row) {
    const auto g = static_cast<size_t>(point.keys[row]);
    ++t.counts[g];
    t.sums[g] += values[row];
  }
  return t;
}

GroupTotals result_totals(const Result& result, const Point& point, KeyKind kind) {
  GroupTotals t{std::vector<uint64_t>(point.k), std::vector<int64_t>(point.k)};
  if (result.names.size() < 3) throw std::runtime_error("the result has too few columns");
  const size_t n = result.names.size() - 2, s = result.names.size() - 1;
  for (size_t row = 0; row < result.rows.size(); ++row) {
    const uint64_t g = group_of(result, row, point, kind);
    if (g >= point.k || t.counts[g] != 0) {
      throw std::runtime_error(fmt::format("group {} is out of range or repeated", g));
    }
    t.counts[g] = static_cast<uint64_t>(result.rows[row][n].i);
    t.sums[g] = result.rows[row][s].i;
  }
  return t;
}

std::string compare_totals(const Reference& ref, const GroupTotals& got) {
  const GroupTotals& want = ref.totals;
  if (got.counts.size() != want.counts.size() || got.sums.size() != want.sums.size()) {
    return fmt::format("{} groups, {} has {}", got.counts.size(), ref.from, want.counts.size());
  }
  for (size_t g = 0; g < want.counts.size(); ++g) {
    if (got.counts[g] != want.counts[g] || got.sums[g] != want.sums[g]) {
      return fmt::format("group {}: count {} sum {}, {} has {} and {}", g, got.counts[g],
                         got.sums[g], ref.from, want.counts[g], want.sums[g]);
    }
  }
  return "";
}

size_t marked_inexact(const Reference& ref, const GroupTotals& got) {
  const GroupTotals& want = ref.totals;
  if (got.counts != want.counts || got.sums.size() != want.sums.size()) return 0;
  size_t marked = 0;
  for (size_t g = 0; g < want.sums.size(); ++g) {
    if (got.sums[g] == want.sums[g]) continue;
    if (got.sums[g] != -1) return 0;
    ++marked;
  }
  return marked;
}

}  // namespace tally::bench
