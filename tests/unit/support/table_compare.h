// Row-by-row comparison of two tables, for tests and round-trip checks.
#pragma once

#include <cstdio>
#include <optional>
#include <string>

#include "compiler/common/decimal.h"
#include "runtime/storage/table.h"

namespace tally::test {

// The payload of a row as text, only for comparing and reporting.
inline std::string payload_text(const Column& column, size_t row) {
  if (!column.is_valid(row)) return "NULL";
  const Type& type = column.type();
  if (type.is_string()) {
    return "'" + column.dictionary()[static_cast<size_t>(column.get_int(row))] + "'";
  }
  if (type.is_float()) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", column.get_double(row));
    return text;
  }
  return int128_to_string(column.get_wide(row));
}

// nullopt when both tables have the same column types and the same values in every row
// (strings compared as text, floats exactly, NULL equal to NULL); otherwise a description
// of the first difference, such as "row 5, column l_tax: 2 vs 3".
inline std::optional<std::string> first_difference(const Table& a, const Table& b) {
  if (a.columns.size() != b.columns.size()) {
    return "column counts " + std::to_string(a.columns.size()) + " vs " +
           std::to_string(b.columns.size());
  }
  if (a.rows() != b.rows()) {
    return "row counts " + std::to_string(a.rows()) + " vs " + std::to_string(b.rows());
  }
  for (size_t c = 0; c < a.columns.size(); ++c) {
    const Column& x = *a.columns[c];
    const Column& y = *b.columns[c];
    std::string name =
        c < a.schema.columns.size() ? a.schema.columns[c].name : "#" + std::to_string(c + 1);
    if (!x.type().same_as(y.type())) {
      return "column " + name + ": types " + x.type().to_string() + " vs " + y.type().to_string();
    }
    for (size_t row = 0; row < a.rows(); ++row) {
      std::string u = payload_text(x, row), v = payload_text(y, row);
      if (u != v) return "row " + std::to_string(row) + ", column " + name + ": " + u + " vs " + v;
    }
  }
  return std::nullopt;
}

}  // namespace tally::test
