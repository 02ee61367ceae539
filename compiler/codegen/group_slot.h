// A row's group slot: its keys evaluated and encoded as the plan says (mixed-radix digits
// of bounded keys, raw bits of a hashed one), then the slot of the direct table or the
// hash table's insert or find.
#pragma once

#include <string>

#include "compiler/codegen/aggregation_context.h"

namespace tally {

// Statements that leave the row's slot in `slot`, or `continue` past the row (a full hash
// table, a key out of its domain). `find_only`: the second pass finds the groups the first
// inserted.
std::string group_slot_code(AggregationContext& ctx, bool find_only);

// One-pass grouping sets (compiler/ir/grouping_sets.h): the Scan merges each row once per
// set, in a loop over `grouping_set` around the row's slot and merges; in set s the keys
// that set drops are NULL. Before the walk: the sets' kept keys (bit k: key k), or nothing
// for an ordinary GROUP BY. Then the loop's head, its brace closed by the caller, or "".
std::string grouping_set_declarations(const AggregationContext& ctx);
std::string grouping_set_loop_head(const AggregationContext& ctx);

// The Finalizer's inverse of a raw key's 64 bits (`bits`): the i128 the host reads back.
std::string raw_key_value(const AggregationContext& ctx, size_t key, const std::string& bits);

}  // namespace tally
