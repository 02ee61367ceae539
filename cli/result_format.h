// Printing results: aligned like psql, CSV (RFC 4180), or JSON (an array of objects).
#pragma once

#include <string>

#include "runtime/result/result.h"

namespace tally {

enum class OutputFormat { Table, Csv, Json };

std::string format_result(const Result& result, OutputFormat format);

}  // namespace tally
