// HAVING on the device: the Finalizer evaluates the predicate on each group's keys and finals
// and writes only the groups it keeps, so a large result whose HAVING keeps few groups (TPC-H
// Q18's SUM(l_quantity) > 300 over 15 M orders) never crosses the bus whole.
#pragma once

#include "compiler/ir/query.h"

namespace tally {

// Whether the Finalizer can evaluate the query's HAVING: comparisons, logic and arithmetic
// over constants, parameters and the cells of group keys and aggregates that hold numbers,
// booleans or times (not strings, intervals, or floating-point keys), and no grouping sets
// (each set's GROUPING() differs). False without HAVING.
bool having_fits_device(const BoundSelect& query);

}  // namespace tally
