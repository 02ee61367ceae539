// The GPU differential check: a GPU result against the CPU engine's. Exact for integers,
// DECIMAL, strings, dates, booleans and NULLs; DOUBLE and REAL within a relative
// tolerance (the GPU adds in another order). Rows are compared as multisets: ORDER BY and
// LIMIT run on the host with the same code for both engines (runtime/result/), so the
// order is not what this checks; with LIMIT or OFFSET the rows kept may differ among ties,
// so only the shape and row count are compared then.
#pragma once

#include <optional>
#include <string>

#include "tally/result_set.h"

namespace tally::fuzz {

// Whether `sql` has LIMIT or OFFSET (a word match, outside quotes).
bool has_limit_or_offset(const std::string& sql);

// A description of the first difference, or nothing when the results agree.
std::optional<std::string> compare_results(const ResultSet& cpu, const ResultSet& gpu,
                                           bool compare_rows);

}  // namespace tally::fuzz
