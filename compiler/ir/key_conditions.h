// HAVING conditions on group keys alone, moved to WHERE. Such a condition keeps or drops a
// group whole, so dropping the group's rows before aggregation leaves the same groups with
// the same aggregates, and the condition then runs where every engine filters: the GPU's Scan
// reads a string key's condition as a dictionary lookup, where its Finalizer holds only the
// key's code (compiler/plan/device_having.h); the CPU aggregates fewer rows.
#pragma once

#include "compiler/ir/query.h"

namespace tally {

// Moves the leading AND-ed terms of the HAVING that read group keys and nothing computed by
// the aggregation (no aggregate, no GROUPING()) into the WHERE, the keys replaced by their
// expressions; the terms from the first other one on stay, so no term is evaluated where the
// HAVING's lazy AND did not evaluate it. Not with grouping sets (a dropped key reads NULL
// there), nor over float or INTERVAL keys (a group's rows may differ in what the group's key
// shows: -0.0 and 0.0).
void move_key_conditions_to_where(BoundSelect& query);

}  // namespace tally
