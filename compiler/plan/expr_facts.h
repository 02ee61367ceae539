// What the planner and the code generator both need to know of an expression below the
// aggregation, for the data at hand: whether it can be NULL, and whether the host computes
// it once per dictionary code.
#pragma once

#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/column_stats.h"

namespace tally {

// The one VARCHAR scan column a non-string expression reads, when it reads only that column:
// the host evaluates it once per dictionary code and the device reads it by code. -1 else.
int dictionary_lookup_column(const Expr& e, const BoundSelect& query);

// False when `e` can never be NULL for this data (its NULL flag then needs no state).
bool may_be_null(const Expr& e, const BoundSelect& query, const std::vector<ColumnStats>& stats);

}  // namespace tally
