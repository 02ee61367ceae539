// The holistic states (MEDIAN, QUANTILE_*, MODE, STRING_AGG, FIRST/LAST with ORDER BY):
// no fixed-size summary gives their answer, so the state is every value of the group
// (HostAggState::values), and for a call with ORDER BY inside each value's sort keys.
// They run on the CPU engine only: none has a device final, so the GPU planner declines.
#pragma once

#include <vector>

#include "compiler/functions/aggregate_state.h"

namespace tally::aggregates {

// Keeps the value (the CPU engine appends its ORDER BY keys beside it).
void update_list(HostAggState& s, const Value& v, const AggContext& ctx);
// Appends from's values and sort keys.
void combine_lists(HostAggState& into, const HostAggState& from, const AggContext& ctx);
// The values in ascending order (descending for WITHIN GROUP (ORDER BY x DESC)).
std::vector<Value> sorted_values(const HostAggState& s, const AggContext& ctx);
// The positions of the values in the call's ORDER BY order. Ties go by value, ascending,
// so the answer does not depend on the order rows arrived in (threads, morsels).
std::vector<size_t> ordered_positions(const HostAggState& s, const AggContext& ctx);

}  // namespace tally::aggregates
