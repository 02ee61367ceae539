// HAVING on the device: the Finalizer evaluates the predicate on each group's keys and finals
// and writes only the groups it keeps, so a large result whose HAVING keeps few groups (TPC-H
// Q18's SUM(l_quantity) > 300 over 15 M orders) never crosses the bus whole.
#pragma once

#include "compiler/ir/query.h"

namespace tally {

// Whether the Finalizer can evaluate the query's HAVING: comparisons, logic and arithmetic
// over constants, parameters and the cells of group keys and aggregates that hold numbers,
// booleans or times (not intervals or floating-point keys), a string key's column through a
// table by its dictionary code (`key <> 'R'`, `key LIKE 'F%'`), and no grouping sets (each
// set's GROUPING() differs). False without HAVING.
bool having_fits_device(const BoundSelect& query);

// The query's HAVING with each reference to a key that is a VARCHAR column replaced by that
// column: the Finalizer reads the column's code from the key's cell, so a term on the key
// alone becomes a per-code lookup as in the Scan (compiler/codegen/cuda_expr.h).
ExprPtr having_over_string_key_columns(const BoundSelect& query);
// Whether a group key is a VARCHAR column, which that form reads as the column.
bool string_column_key(const Expr& key);

}  // namespace tally
