// Order and text of single values (the SQL type travels beside the Value).
#pragma once

#include <string>

#include "compiler/common/string_heap.h"
#include "compiler/common/types.h"
#include "compiler/common/value.h"

namespace tally {

// Total order used by ORDER BY, MIN/MAX and comparisons (NULLs handled by the caller):
// negative, zero or positive.
int compare_values(const Value& a, const Value& b, const Type& type, const StringHeap* strings);
// Comparison of values of two possibly different DECIMAL scales.
int compare_decimal(int128 a, int sa, int128 b, int sb);

// The payload that values equal under compare_values share, for hashing them into groups:
// 0.0 and -0.0 one, every NaN one, intervals of one span ('1 day', '24 hours') one.
Value hash_payload(const Value& v, const Type& type);

// Text of a value as psql prints it (NULL as empty string is the caller's choice).
std::string format_value(const Value& v, const Type& type, const StringHeap* strings);

}  // namespace tally
