#include "tools/slt/compare.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tally::slt {

namespace {

constexpr double kRelativeTolerance = 1e-9;
constexpr double kAbsoluteTolerance = 1e-12;

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> values;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string::npos; start = tab + 1) {
    values.push_back(line.substr(start, tab - start));
  }
  values.push_back(line.substr(start));
  return values;
}

bool any_tab(const std::vector<std::string>& lines) {
  return std::any_of(lines.begin(), lines.end(),
                     [](const std::string& l) { return l.find('\t') != std::string::npos; });
}

// valuesort: every value in one column, sorted.
Rows sorted_values(const Rows& rows) {
  Rows values;
  for (const auto& row : rows) {
    for (const auto& v : row) values.push_back({v});
  }
  std::sort(values.begin(), values.end());
  return values;
}

Rows ordered(Rows rows, SortMode sort) {
  if (sort == SortMode::RowSort) std::sort(rows.begin(), rows.end());
  if (sort == SortMode::ValueSort) return sorted_values(rows);
  return rows;
}

// The type letters the compared columns have: valuesort mixes all columns into one, which
// is numeric only when every column is.
std::string compared_types(const Record& record) {
  if (record.sort != SortMode::ValueSort) return record.types;
  bool all_real = record.types.find_first_not_of('R') == std::string::npos;
  return all_real ? "R" : "T";
}

std::optional<std::string> first_difference(const Rows& expected, const Rows& actual,
                                            const std::string& types) {
  if (expected.size() != actual.size()) {
    return fmt::format("expected {} row{}, got {}", expected.size(),
                       expected.size() == 1 ? "" : "s", actual.size());
  }
  for (size_t r = 0; r < expected.size(); ++r) {
    if (expected[r].size() != actual[r].size()) {
      return fmt::format("row {}: expected {} values, got {}", r + 1, expected[r].size(),
                         actual[r].size());
    }
    for (size_t c = 0; c < expected[r].size(); ++c) {
      if (!values_equal(expected[r][c], actual[r][c], types[c])) {
        return fmt::format("row {}, column {}: expected '{}', got '{}'", r + 1, c + 1,
                           expected[r][c], actual[r][c]);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> parse_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return value;
}

Rows result_values(const Result& result) {
  Rows rows(result.rows.size());
  for (size_t r = 0; r < result.rows.size(); ++r) {
    for (size_t c = 0; c < result.types.size(); ++c) {
      std::string text = result.rows[r][c].null ? "NULL" : result.cell_text(r, c);
      rows[r].push_back(text.empty() ? "(empty)" : text);
    }
  }
  return rows;
}

Rows expected_values(const std::vector<std::string>& lines, size_t columns, size_t actual_rows) {
  Rows rows;
  if (columns > 1 && lines.size() == actual_rows * columns && !any_tab(lines)) {
    for (size_t i = 0; i < lines.size(); i += columns) {
      rows.emplace_back(lines.begin() + static_cast<std::ptrdiff_t>(i),
                        lines.begin() + static_cast<std::ptrdiff_t>(i + columns));
    }
    return rows;
  }
  for (const auto& line : lines) rows.push_back(split_tabs(line));
  return rows;
}

bool values_equal(const std::string& expected, const std::string& actual, char type) {
  if (expected == actual) return true;
  if (type != 'R') return false;
  std::optional<double> e = parse_number(expected), a = parse_number(actual);
  if (!e || !a) return false;
  double tolerance =
      std::max(kAbsoluteTolerance, kRelativeTolerance * std::max(std::abs(*e), std::abs(*a)));
  return std::abs(*e - *a) <= tolerance;
}

std::optional<std::string> compare_query(const Record& record, const Result& result) {
  if (record.types.size() != result.types.size()) {
    return fmt::format("the record declares {} column{} ('{}'), the result has {}",
                       record.types.size(), record.types.size() == 1 ? "" : "s", record.types,
                       result.types.size());
  }
  Rows actual = result_values(result);
  Rows expected = expected_values(record.expected, record.types.size(), actual.size());
  return first_difference(ordered(std::move(expected), record.sort),
                          ordered(std::move(actual), record.sort), compared_types(record));
}

bool error_matches(const std::optional<std::string>& expected, const std::string& actual) {
  return !expected || actual.starts_with(*expected);
}

std::vector<std::string> format_rows(const Rows& rows) {
  std::vector<std::string> lines;
  for (const auto& row : rows) lines.push_back(fmt::format("{}", fmt::join(row, "\t")));
  return lines;
}

}  // namespace tally::slt
