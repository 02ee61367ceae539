// Interval reasoning over integer and DECIMAL expressions from the column statistics: how
// large a value can get (register widths, overflow checks, 64-bit arithmetic) and its range.
#pragma once

#include <vector>

#include "compiler/ir/expr.h"
#include "compiler/plan/column_stats.h"

namespace tally {

// log2 of the largest unscaled magnitude an expression can reach, by interval reasoning
// over the column statistics (declared precision where nothing better is known).
long double magnitude_log2(const Expr& e, const std::vector<ColumnStats>& stats);

// Interval of an integer or DECIMAL expression's unscaled value, from the column statistics
// (known == false where the reasoning does not reach: floats, division, functions).
struct ValueBounds {
  bool known = false;
  long double lo = 0, hi = 0;
};
ValueBounds value_bounds(const Expr& e, const std::vector<ColumnStats>& stats);

}  // namespace tally
