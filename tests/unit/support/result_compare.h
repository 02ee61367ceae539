// Comparing two query results whose row order does not matter (the CPU engine's against the
// GPU's): both are sorted by all columns, then compared cell by cell — exactly, except for
// floating-point columns, which get the tolerance the caller names per column.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/unit/support/query_generator.h"

namespace tally::test {

// What running one statement gave: a result, or the error it raised.
struct RunOutcome {
  bool ok = false;
  Result result;
  ErrorKind error_kind = ErrorKind::Internal;
  std::string error;
};

inline RunOutcome run_outcome(Database& db, const std::string& sql, const ExecOptions& options) {
  RunOutcome out;
  try {
    db.execute_script(sql, options, [&](const StatementOutcome& o) {
      if (o.result) out.result = *o.result;
    });
    out.ok = true;
  } catch (const Error& e) {
    out.error_kind = e.kind();
    out.error = e.what();
  }
  return out;
}

namespace compare_detail {

// Orders two non-NULL cells of one column: negative, zero or positive.
inline int compare_cells(const Result& ra, const Value& a, const Result& rb, const Value& b,
                         const Type& type) {
  if (type.is_string()) return ra.strings->get(a.i).compare(rb.strings->get(b.i));
  if (type.is_decimal()) return a.d < b.d ? -1 : a.d > b.d ? 1 : 0;
  if (type.is_float()) {
    if (std::isnan(a.f) || std::isnan(b.f)) return std::isnan(a.f) - std::isnan(b.f);
    return a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
  }
  return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
}

// Row indices of `r` in the order of all columns, NULLs first.
inline std::vector<size_t> sorted_rows(const Result& r) {
  std::vector<size_t> order(r.rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    for (size_t c = 0; c < r.types.size(); ++c) {
      const Value& a = r.rows[x][c];
      const Value& b = r.rows[y][c];
      if (a.null != b.null) return a.null;
      if (a.null) continue;
      int order = compare_cells(r, a, r, b, r.types[c]);
      if (order != 0) return order < 0;
    }
    return false;
  });
  return order;
}

inline bool floats_close(double a, double b, const ColumnTolerance& t) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a == b) return true;  // infinities included
  return std::fabs(a - b) <= t.relative * std::max(std::fabs(a), std::fabs(b)) + t.absolute;
}

inline bool cells_match(const Result& ra, const Value& a, const Result& rb, const Value& b,
                        const Type& type, const ColumnTolerance& t) {
  if (a.null || b.null) return a.null == b.null;
  if (type.is_float()) return floats_close(a.f, b.f, t);
  return compare_cells(ra, a, rb, b, type) == 0;
}

}  // namespace compare_detail

// An Unsupported error's message with the query's own parts (quoted SQL, numbers) taken out,
// so that equal reasons count together.
inline std::string unsupported_reason(const std::string& message) {
  std::string out;
  bool quoted = false;
  for (size_t i = 0; i < message.size(); ++i) {
    char c = message[i];
    if (c == '"') {
      quoted = !quoted;
      if (quoted) out += "...";
      continue;
    }
    if (quoted) continue;
    if (c >= '0' && c <= '9') {
      if (out.empty() || out.back() != 'N') out += 'N';
      continue;
    }
    out += c;
  }
  for (const char* tail : {" is not supported on the GPU yet", " is not supported on the GPU"}) {
    size_t at = out.find(tail);
    if (at != std::string::npos) out.erase(at, std::string(tail).size());
  }
  return out;
}

// The rows of `r` as text, sorted, at most `limit` of them.
inline std::string result_text(const Result& r, size_t limit = 12) {
  std::string out;
  for (size_t c = 0; c < r.names.size(); ++c) {
    out += fmt::format("{}{} {}", c ? " | " : "", r.names[c], r.types[c].to_string());
  }
  out += fmt::format("  ({} rows)\n", r.rows.size());
  std::vector<size_t> order = compare_detail::sorted_rows(r);
  for (size_t i = 0; i < order.size() && i < limit; ++i) {
    for (size_t c = 0; c < r.names.size(); ++c) {
      out += (c ? " | " : "  ") + r.cell_text(order[i], c);
    }
    out += "\n";
  }
  if (order.size() > limit) out += fmt::format("  ... {} more\n", order.size() - limit);
  return out;
}

// "" when `actual` holds the same rows as `expected` (in any order); otherwise what differs.
// `tolerances` has one entry per column (missing entries: exact).
// Floats of `r` to 1e-9 relative (sums add in another order on another engine or split),
// everything else exactly.
inline std::vector<ColumnTolerance> float_tolerances(const Result& r) {
  std::vector<ColumnTolerance> t;
  for (const Type& type : r.types)
    t.push_back(type.is_float() ? ColumnTolerance{1e-9, 1e-12} : ColumnTolerance{});
  return t;
}

inline std::string result_difference(const Result& expected, const Result& actual,
                                     const std::vector<ColumnTolerance>& tolerances) {
  if (expected.types.size() != actual.types.size()) {
    return fmt::format("{} columns, expected {}", actual.types.size(), expected.types.size());
  }
  for (size_t c = 0; c < expected.types.size(); ++c) {
    if (!(expected.types[c] == actual.types[c])) {
      return fmt::format("column {} is {}, expected {}", c, actual.types[c].to_string(),
                         expected.types[c].to_string());
    }
  }
  if (expected.rows.size() != actual.rows.size()) {
    return fmt::format("{} rows, expected {}", actual.rows.size(), expected.rows.size());
  }
  std::vector<size_t> want = compare_detail::sorted_rows(expected);
  std::vector<size_t> got = compare_detail::sorted_rows(actual);
  for (size_t i = 0; i < want.size(); ++i) {
    for (size_t c = 0; c < expected.types.size(); ++c) {
      ColumnTolerance t = c < tolerances.size() ? tolerances[c] : ColumnTolerance{};
      if (!compare_detail::cells_match(expected, expected.rows[want[i]][c], actual,
                                       actual.rows[got[i]][c], expected.types[c], t)) {
        return fmt::format("sorted row {}, column {} ({}): {}, expected {}", i, c,
                           expected.names[c], actual.cell_text(got[i], c),
                           expected.cell_text(want[i], c));
      }
    }
  }
  return "";
}

}  // namespace tally::test
