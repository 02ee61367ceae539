// Row-by-row comparison of two tables, for tests and round-trip checks.
#pragma once

#include <optional>
#include <string>

#include "runtime/storage/table.h"

namespace tally {

// nullopt when both tables have the same column types and the same values in every row
// (strings compared as text, floats exactly, NULL equal to NULL); otherwise a description
// of the first difference, such as "row 5, column l_tax: 2 vs 3".
std::optional<std::string> first_difference(const Table& a, const Table& b);

}  // namespace tally
