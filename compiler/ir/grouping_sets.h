// GROUPING SETS / ROLLUP / CUBE as one query per set: each runs on either engine as an
// ordinary GROUP BY, and the caller unions their rows and finishes them (ORDER BY,
// DISTINCT, LIMIT) as the whole query says.
#pragma once

#include <vector>

#include "compiler/ir/query.h"

namespace tally {

// One query per grouping set of `query`, in set order: the set's keys only, the other
// keys NULL in the outputs and HAVING, GROUPING() a constant; every output visible (the
// hidden ones are sort keys) and no ORDER BY, DISTINCT, LIMIT or OFFSET.
std::vector<BoundSelect> split_grouping_sets(const BoundSelect& query);

// GROUPING(keys)'s value in the set `mask`: bit (n - 1 - i) set when argument i is not
// grouped (PostgreSQL's order: the last argument is bit 0).
int64_t grouping_value(const Expr& grouping, uint64_t mask);

}  // namespace tally
