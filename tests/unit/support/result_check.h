// Helpers for end-to-end tests: run SQL through a Database and compare every cell of the
// Result with expected values that the test computed on its own. The reference side here
// (dates, rounding, printing of 128-bit integers) is written out again on purpose, so that
// no expected value goes through the engine's evaluator, casts or aggregate code.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "compiler/common/error.h"
#include "runtime/session/database.h"

namespace tally::test {

// ---- running SQL ----

// Runs a script whose statements return no rows that the test needs (CREATE, INSERT).
inline void run_script(Database& db, const std::string& sql) {
  ExecOptions options;
  options.device = DeviceChoice::Cpu;
  db.execute_script(sql, options, [](const StatementOutcome&) {});
}

// Runs a script with `options` and returns the outcome of its last statement that produced a
// result (its timings, notices and generated CUDA beside the rows).
inline StatementOutcome last_outcome(Database& db, const std::string& sql,
                                     const ExecOptions& options) {
  StatementOutcome last;
  db.execute_script(sql, options, [&](const StatementOutcome& outcome) {
    if (outcome.result) last = outcome;
  });
  REQUIRE(last.result.has_value());
  return last;
}

// The same outcome's result.
inline Result last_result(Database& db, const std::string& sql, const ExecOptions& options) {
  return *last_outcome(db, sql, options).result;
}

inline Result run_sql(Database& db, const std::string& sql,
                      std::vector<std::string> parameters = {}, CpuPath path = CpuPath::Auto) {
  ExecOptions options;
  options.device = DeviceChoice::Cpu;
  options.cpu_path = path;
  options.parameters = std::move(parameters);
  return last_result(db, sql, options);
}

// The rows as text ("a|b|" a row), in order.
inline std::vector<std::string> row_texts(const Result& r) {
  std::vector<std::string> rows;
  for (size_t i = 0; i < r.rows.size(); ++i) {
    std::string line;
    for (size_t c = 0; c < r.names.size(); ++c) line += r.cell_text(i, c) + "|";
    rows.push_back(line);
  }
  return rows;
}

// The same sorted, to compare two results whatever their row order.
inline std::vector<std::string> sorted_row_texts(const Result& r) {
  std::vector<std::string> rows = row_texts(r);
  std::sort(rows.begin(), rows.end());
  return rows;
}

inline std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The checkout's root: TALLY_SOURCE_DIR from the environment where a test binary runs on
// another machine (the GPU machine), else the build's.
inline std::string source_dir() {
  const char* env = std::getenv("TALLY_SOURCE_DIR");
  return env ? env : TALLY_SOURCE_DIR;
}

// The text of queries/<name>.sql.
inline std::string query_file(const std::string& name) {
  return read_text_file(source_dir() + "/queries/" + name + ".sql");
}

// The message of the tally::Error that running `sql` throws ("" if none is thrown).
inline std::string error_of(Database& db, const std::string& sql,
                            std::vector<std::string> parameters = {}) {
  try {
    run_sql(db, sql, std::move(parameters));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// The message of the tally::Error that `run` throws, checking its kind; fails without one.
template <typename Run>
std::string error_from(Run run, ErrorKind kind) {
  try {
    run();
  } catch (const Error& e) {
    CHECK(e.kind() == kind);
    return e.what();
  }
  FAIL("no error");
  return "";
}

// ---- reference arithmetic ----

inline std::string int128_text(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : v;
  std::string digits;
  while (u) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return negative ? "-" + digits : digits;
}

inline __int128 power_of_ten(int n) {
  __int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

// a / b (b > 0) rounded half away from zero, the rule SQL DECIMAL results follow here.
inline __int128 divide_half_away(__int128 a, __int128 b) {
  __int128 q = a / b;
  __int128 r = a % b;
  __int128 twice = (r < 0 ? -r : r) * 2;
  if (twice >= b) q += a < 0 ? -1 : 1;
  return q;
}

// Sample variance of values x_i / 10^scale from exact sums: (n*sum(x^2) - sum(x)^2) /
// (n*(n-1)), with the only rounding in the final division.
inline long double sample_variance(__int128 n, __int128 sum, __int128 sum_squares, int scale) {
  __int128 numerator = n * sum_squares - sum * sum;
  long double unit = static_cast<long double>(power_of_ten(2 * scale));
  return static_cast<long double>(numerator) / static_cast<long double>(n * (n - 1)) / unit;
}

// ---- reference calendar (days since 1970-01-01), counted naively ----

inline bool leap_year(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
inline int days_in_year(int y) { return leap_year(y) ? 366 : 365; }
inline int days_in_month(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap_year(y) ? 29 : kDays[m - 1];
}

inline int32_t days_since_epoch(int y, int m, int d) {
  int32_t days = 0;
  for (int year = 1970; year < y; ++year) days += days_in_year(year);
  for (int month = 1; month < m; ++month) days += days_in_month(y, month);
  return days + d - 1;
}

struct YearMonth {
  int year;
  int month;
};

inline YearMonth year_month_of(int32_t days) {
  int y = 1970;
  while (days >= days_in_year(y)) days -= days_in_year(y++);
  int m = 1;
  while (days >= days_in_month(y, m)) days -= days_in_month(y, m++);
  return {y, m};
}

// ---- expected cells ----

struct Cell {
  enum class Kind { Null, Integer, Decimal, Double, Text, Date, Boolean } kind = Kind::Null;
  __int128 number = 0;  // Integer, Decimal (unscaled), Date (days), Boolean (0/1)
  int scale = 0;        // Decimal
  long double real = 0;
  std::string text;
};

inline Cell null_cell() { return {}; }
inline Cell int_cell(int64_t v) { return {Cell::Kind::Integer, v, 0, 0, {}}; }
inline Cell decimal_cell(__int128 unscaled, int scale) {
  return {Cell::Kind::Decimal, unscaled, scale, 0, {}};
}
inline Cell double_cell(long double v) { return {Cell::Kind::Double, 0, 0, v, {}}; }
inline Cell text_cell(std::string s) { return {Cell::Kind::Text, 0, 0, 0, std::move(s)}; }
inline Cell date_cell(int32_t days) { return {Cell::Kind::Date, days, 0, 0, {}}; }
inline Cell bool_cell(bool b) { return {Cell::Kind::Boolean, b ? 1 : 0, 0, 0, {}}; }

using Rows = std::vector<std::vector<Cell>>;

inline bool close_relative(long double actual, long double expected, long double tolerance) {
  if (expected == 0) return std::fabs(actual) <= tolerance;
  return std::fabs(actual - expected) <= tolerance * std::fabs(expected);
}

inline void expect_cell(const Result& r, size_t row, size_t col, const Cell& want) {
  const Value& got = r.rows[row][col];
  const Type& type = r.types[col];
  INFO("row ", row, ", column ", col, " (", r.names[col], " ", type.to_string(), ")");
  if (want.kind == Cell::Kind::Null) {
    CHECK(got.null);
    return;
  }
  REQUIRE_FALSE(got.null);
  switch (want.kind) {
    case Cell::Kind::Integer:
      REQUIRE(type.is_integer());
      CHECK(got.i == static_cast<int64_t>(want.number));
      break;
    case Cell::Kind::Decimal:
      REQUIRE(type.is_decimal());
      CHECK(static_cast<int>(type.scale) == want.scale);
      CHECK(int128_text(got.d) == int128_text(want.number));
      break;
    case Cell::Kind::Double:
      REQUIRE(type.is_float());
      CHECK_MESSAGE(close_relative(got.f, want.real, 1e-9L),
                    "got " << got.f << ", expected " << static_cast<double>(want.real));
      break;
    case Cell::Kind::Text:
      REQUIRE(type.is_string());
      CHECK(r.strings->get(got.i) == want.text);
      break;
    case Cell::Kind::Date:
      REQUIRE(type.id == TypeId::Date);
      CHECK(got.i == static_cast<int64_t>(want.number));
      break;
    case Cell::Kind::Boolean:
      REQUIRE(type.id == TypeId::Boolean);
      CHECK(got.i == static_cast<int64_t>(want.number));
      break;
    case Cell::Kind::Null:
      break;
  }
}

// Every row and every cell of `r` against `expected`, in order.
inline void expect_rows(const Result& r, const Rows& expected) {
  REQUIRE(r.rows.size() == expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    REQUIRE(r.rows[i].size() >= expected[i].size());
    REQUIRE(r.names.size() == expected[i].size());
    for (size_t c = 0; c < expected[i].size(); ++c) expect_cell(r, i, c, expected[i][c]);
  }
}

}  // namespace tally::test
