#include "compiler/codegen/row_program_top.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "compiler/plan/value_bounds.h"

namespace tally {

namespace {

// Whether every group's sum of `arg` stays inside 62 bits, so its field's low word holds it.
bool sum_fits_low_word(const Expr& arg, const std::vector<ColumnStats>& stats,
                       const std::vector<Value>& parameters, uint64_t rows) {
  const ValueBounds b = value_bounds(arg, stats, &parameters);
  if (!b.known) return false;
  const long double most = std::max(std::fabs(b.lo), std::fabs(b.hi));
  return most * static_cast<long double>(std::max<uint64_t>(rows, 1)) < 4e18L;
}

}  // namespace

std::variant<tally_interp::TopOrder, std::string> top_order(const BoundSelect& query,
                                                            const RowProgram& p,
                                                            const std::vector<ColumnStats>& stats,
                                                            const std::vector<Value>& parameters,
                                                            uint64_t rows) {
  if (query.order_by.empty()) return "no ORDER BY";
  if (!query.limit && query.limit_parameter < 0) return "no LIMIT";
  if (query.having) return "HAVING";  // the k-th group is chosen before HAVING would drop any
  if (query.distinct_outputs || !query.distinct_on.empty()) return "DISTINCT rows";
  if (p.distinct_values > 0) return "a DISTINCT aggregate";
  const SortKey& first = query.order_by.front();
  const uint32_t flags = (first.descending ? tally_interp::kTopDescending : 0) |
                         (first.nulls_first ? tally_interp::kTopNullsFirst : 0);
  const Expr& e = *query.outputs.at(static_cast<size_t>(first.output)).expr;
  if (e.kind == ExprKind::GroupKeyRef) return tally_interp::TopOrder{e.index, -1, -1, flags};
  if (e.kind != ExprKind::AggregateRef)
    return "the first ORDER BY key is neither a group key nor an aggregate";
  const auto a = static_cast<size_t>(e.index);
  const AggregateCall& call = query.aggregates.at(a);
  const std::vector<int>& ids = p.layout.aggregate_fields.at(a);
  switch (p.layout.aggregate_states.at(a)) {
    case StateKind::Count:
      return tally_interp::TopOrder{-1, ids.at(0), -1, flags};
    case StateKind::SumInt:
    case StateKind::SumWide:
      if (!sum_fits_low_word(*call.arg, stats, parameters, rows))
        return fmt::format("{} may pass 62 bits", call.text.str());
      return tally_interp::TopOrder{-1, ids.at(1), ids.at(0), flags};
    case StateKind::MinInt:
    case StateKind::MaxInt:
    case StateKind::MinWide:
    case StateKind::MaxWide:
      return tally_interp::TopOrder{-1, ids.at(1), ids.at(0), flags};
    default:
      return fmt::format("{} does not order as one state field", call.text.str());
  }
}

}  // namespace tally
