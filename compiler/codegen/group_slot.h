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

// The Finalizer's inverse of a raw key's 64 bits (`bits`): the i128 the host reads back.
std::string raw_key_value(const AggregationContext& ctx, size_t key, const std::string& bits);

}  // namespace tally
