// Comparing a query's result with a record's expected rows, sqllogictest style.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/result/result.h"
#include "tools/slt/record.h"

namespace tally::slt {

using Rows = std::vector<std::vector<std::string>>;

// A result as sqllogictest text: NULL as "NULL", the empty string as "(empty)".
Rows result_values(const Result& result);

// The expected lines as rows: one row per line with tab-separated values, or the classic
// one-value-per-line layout when that is what the lines must be (more than one column, no
// tab anywhere, and exactly rows * columns lines).
Rows expected_values(const std::vector<std::string>& lines, size_t columns, size_t actual_rows);

// The whole of `text` as a number, or nullopt (also for the empty string).
std::optional<double> parse_number(const std::string& text);

// Whether one value matches: R (real) columns compare numerically when both sides are
// numbers (relative tolerance 1e-9, absolute 1e-12), so 2.5 matches 2.50; I and T as text.
bool values_equal(const std::string& expected, const std::string& actual, char type);

// Why `result` does not match the query record, or nullopt when it does.
std::optional<std::string> compare_query(const Record& record, const Result& result);

// Whether an error message satisfies `statement error`: any message when nothing is
// expected, otherwise the message must start with the expected text.
bool error_matches(const std::optional<std::string>& expected, const std::string& actual);

// Rows as the lines a .test file would hold (values joined by tabs).
std::vector<std::string> format_rows(const Rows& rows);

}  // namespace tally::slt
