// One interval analysis over integer-valued expressions (integers, DECIMALs as unscaled
// integers, DATEs as days, BOOLEANs as 0/1), from the column statistics, constants, known
// parameter values and each operator's semantics. It bounds group keys to a domain (MOD,
// EXTRACT, CASE, arithmetic, casts), register widths and overflow checks (how large a value
// can get), and the 64-bit paths of DECIMAL arithmetic.
#pragma once

#include <vector>

#include "compiler/common/value.h"
#include "compiler/ir/expr.h"
#include "compiler/plan/column_stats.h"

namespace tally {

// Interval of an expression's unscaled value (known == false where the reasoning does not
// reach: floats, strings, functions of unbounded inputs). NULL is not a
// value: a range says nothing of whether the expression can be NULL.
struct ValueBounds {
  bool known = false;
  long double lo = 0, hi = 0;
};

// `parameters`: the values of `?` when known (a plan made for one execution), else null.
ValueBounds value_bounds(const Expr& e, const std::vector<ColumnStats>& stats,
                         const std::vector<Value>* parameters = nullptr);

// log2 of the largest unscaled magnitude an expression can reach: from value_bounds where it
// is known, else by reasoning over the children's magnitudes and, where nothing better is
// known, the declared precision.
long double magnitude_log2(const Expr& e, const std::vector<ColumnStats>& stats);

}  // namespace tally
