#include "compiler/plan/count_sum_packing.h"

#include "compiler/plan/expr_facts.h"
#include "compiler/plan/value_bounds.h"

namespace tally {

namespace {

constexpr long double kPackedRange = 4294967296.0L;  // 2^32: the sum's half of the word

// The offset that brings the aggregate's values into [0, 2^32), if there is one.
bool packable_values(const AggregateCall& call, const BoundSelect& query,
                     const std::vector<ColumnStats>& stats, int64_t& offset) {
  if (!call.arg || call.distinct || call.key) return false;
  const ValueBounds v = value_bounds(*call.arg, stats);
  if (!v.known || v.hi - v.lo >= kPackedRange) return false;
  if (v.lo >= 0 && v.hi < kPackedRange) {
    offset = 0;
    return true;
  }
  // A NULL adds nothing to the sum but one to the row count, which the offset goes back by.
  if (may_be_null(*call.arg, query, stats) || v.lo < -9.2e18L) return false;
  offset = static_cast<int64_t>(v.lo);
  return true;
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
    if (!packable_values(query.aggregates.at(static_cast<size_t>(fields[f].aggregate)), query,
                         stats, offset)) {
      continue;
    }
    packing.field = static_cast<int>(f);
    packing.offset = offset;
    return packing;
  }
  return packing;
}

}  // namespace tally
