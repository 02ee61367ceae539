// How GROUP BY keys become slots (README.md "How a query runs on the GPU"): each key a digit
// over the domain its statistics or the interval analysis bound (a column's range, a
// dictionary's codes, MOD, EXTRACT, CASE ...), several keys a mixed-radix number; keys
// without a bound are hashed by value, in the layout hash_key_layout picks.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/plan/column_stats.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

// One key's encoding: a bounded digit (with `exact` where no row can leave the range) or a
// raw key, hashed by value.
KeyEncoding encode_key(const Expr& key, const std::vector<ColumnStats>& stats,
                       const BoundSelect& query, const std::vector<Value>* parameters);

// A period key's period (KeyEncoding::period) as --explain names it: "month", "week", ...
const char* period_name(int period);

// What a bounded key's digit counts from `min` for a key `value`: the value itself, or the
// index of the period it falls in (KeyEncoding::period).
int64_t key_digit_value(const KeyEncoding& key, int64_t value);

// One-pass grouping sets (compiler/ir/grouping_sets.h): a key some set drops is NULL in that
// set's groups, so it needs its NULL digit even where the column has no NULL.
void hold_dropped_keys_null(const BoundSelect& query, std::vector<KeyEncoding>& keys);

// Product of the radices, or 0 when it passes 2^62 or a key is unbounded.
uint64_t slot_product(const std::vector<KeyEncoding>& keys);

// The slot key of a hash plan whose keys do not pack into one 64-bit word: a wide DECIMAL
// alone or one raw 64-bit key beside bounded digits in 128 bits, anything else in KeyWords
// (`words` of them). May unbind bounded keys whose digits overflow a word. Throws
// Error(Unsupported) naming what the layouts cannot hold.
HashKeyLayout hash_key_layout(const BoundSelect& query, std::vector<KeyEncoding>& keys,
                              uint8_t& words);

}  // namespace tally
