// HAVING conditions on group keys alone, moved to WHERE. Such a condition keeps or drops a
// group whole, so dropping the group's rows before aggregation leaves the same groups with
// the same aggregates, and the condition then runs where every engine filters: both engines
// aggregate fewer rows and keep fewer groups.
#pragma once

#include <functional>

#include "compiler/ir/query.h"

namespace tally {

// Moves the leading AND-ed terms of the HAVING that read group keys and nothing computed by
// the aggregation (no aggregate, no GROUPING()) into the WHERE, the keys replaced by their
// expressions; the terms from the first other one on stay, so no term is evaluated where the
// HAVING's lazy AND did not evaluate it. Not with grouping sets (a dropped key reads NULL
// there), nor over float or INTERVAL keys (a group's rows may differ in what the group's key
// shows: -0.0 and 0.0).
void move_key_conditions_to_where(BoundSelect& query);

// `e` (above the aggregation) with each reference to a group key for which `replace` holds, or
// to every key without it, replaced by the key's expression over the rows.
ExprPtr with_keys_over_rows(const ExprPtr& e, const BoundSelect& query,
                            const std::function<bool(const Expr& key)>& replace = {});

}  // namespace tally
