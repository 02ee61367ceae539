// A statement's `?` values: they arrive as text (CLI, tally exec, the library's string
// parameters) and take the types the binder inferred for them.
#pragma once

#include <string>
#include <vector>

#include "compiler/common/string_heap.h"
#include "compiler/common/value.h"
#include "compiler/ir/query.h"

namespace tally {

// One Value a parameter, "NULL" as NULL, strings interned in `strings`. Throws
// Error(Execution) when the count differs from the statement's or a text does not convert.
std::vector<Value> convert_parameters(const BoundSelect& query,
                                      const std::vector<std::string>& texts, StringHeap& strings);

}  // namespace tally
