// Printing results: aligned like psql, CSV (RFC 4180), JSON (an array of objects), or line
// (one "column = value" line a cell, a blank line between rows, like sqlite3's .mode line).
#pragma once

#include <ostream>
#include <string>

#include "runtime/result/result.h"

namespace tally {

enum class OutputFormat { Table, Csv, Json, Line };

// Large results are spelled on all cores and streamed in windows of rows.
void write_result(std::ostream& out, const Result& result, OutputFormat format);
std::string format_result(const Result& result, OutputFormat format);

}  // namespace tally
