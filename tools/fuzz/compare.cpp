#include "tools/fuzz/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "tools/fuzz/mutator.h"
#include "tools/slt/compare.h"

namespace tally::fuzz {

namespace {

bool is_float(TypeKind kind) { return kind == TypeKind::Double || kind == TypeKind::Real; }

// A row as the text of its exact columns (the sort key) and the values of its float ones.
struct Row {
  std::string exact;
  std::vector<std::string> texts;  // the exact columns' cells, one by one
  std::vector<bool> is_string;     // whether each of those is a VARCHAR cell
  std::vector<std::optional<double>> floats;
  bool operator<(const Row& other) const { return exact < other.exact; }
};

std::vector<Row> rows_of(const ResultSet& r) {
  std::vector<Row> rows(r.row_count());
  for (size_t i = 0; i < r.row_count(); ++i) {
    for (size_t c = 0; c < r.column_count(); ++c) {
      if (!is_float(r.column(c).kind)) {
        rows[i].texts.push_back(r.get_text(i, c));
        rows[i].is_string.push_back(r.column(c).kind == TypeKind::Varchar);
        rows[i].exact += rows[i].texts.back() + '\x1f';
      } else if (r.is_null(i, c)) {
        rows[i].floats.push_back(std::nullopt);
      } else {
        rows[i].floats.push_back(r.get_double(i, c));
      }
    }
  }
  std::stable_sort(rows.begin(), rows.end());
  return rows;
}

// The row for a message: its exact columns, then its float ones at full precision.
std::string describe(const Row& row) {
  std::string text = row.exact;
  for (const auto& f : row.floats) text += f ? fmt::format("{:.17g}\x1f", *f) : "NULL\x1f";
  for (auto& c : text)
    if (c == '\x1f') c = '|';
  return text;
}

// Up to five rows, for a message.
std::string first_rows(const std::vector<Row>& rows) {
  std::string text;
  for (size_t i = 0; i < rows.size() && i < 5; ++i) text += "[" + describe(rows[i]) + "]";
  return rows.size() > 5 ? text + "..." : text;
}

bool close(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return a.has_value() == b.has_value();
  if (std::isnan(*a) || std::isnan(*b)) return std::isnan(*a) && std::isnan(*b);
  if (std::isinf(*a) || std::isinf(*b)) return *a == *b;
  double scale = std::max({std::fabs(*a), std::fabs(*b), 1e-300});
  return std::fabs(*a - *b) <= 1e-6 * scale;
}

// Exact cells agree, except that a string holding a number (CAST(SUM(d) AS VARCHAR)) is
// compared as the float it came from: the GPU adds floats in another order.
bool same_exact(const Row& a, const Row& b) {
  if (a.exact == b.exact) return true;
  if (a.texts.size() != b.texts.size()) return false;
  for (size_t i = 0; i < a.texts.size(); ++i) {
    if (a.texts[i] == b.texts[i]) continue;
    if (!a.is_string[i] || !close(slt::parse_number(a.texts[i]), slt::parse_number(b.texts[i])))
      return false;
    if (!slt::parse_number(a.texts[i])) return false;
  }
  return true;
}

// Rows whose exact parts tie are lined up by their float values, all of them in order
// (NULL first): a query may give several rows that differ in float columns alone.
void order_ties(std::vector<Row>& rows) {
  auto key = [](const std::optional<double>& f) {
    return !f ? -HUGE_VAL : std::isnan(*f) ? HUGE_VAL : *f;  // a total order, NaN last
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    if (a.exact != b.exact) return a.exact < b.exact;
    for (size_t i = 0; i < a.floats.size() && i < b.floats.size(); ++i) {
      if (key(a.floats[i]) != key(b.floats[i])) return key(a.floats[i]) < key(b.floats[i]);
    }
    return false;
  });
}

}  // namespace

bool has_limit_or_offset(const std::string& sql) {
  for (const auto& token : tokenize(sql)) {
    std::string upper = token;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper == "LIMIT" || upper == "OFFSET") return true;
  }
  return false;
}

std::optional<std::string> compare_results(const ResultSet& cpu, const ResultSet& gpu,
                                           bool compare_rows) {
  if (cpu.column_count() != gpu.column_count())
    return fmt::format("{} columns on the CPU, {} on the GPU", cpu.column_count(),
                       gpu.column_count());
  for (size_t c = 0; c < cpu.column_count(); ++c) {
    if (cpu.column(c).type_name != gpu.column(c).type_name)
      return fmt::format("column {} is {} on the CPU, {} on the GPU", c + 1,
                         cpu.column(c).type_name, gpu.column(c).type_name);
  }
  if (cpu.row_count() != gpu.row_count() && !compare_rows)
    return fmt::format("{} rows on the CPU, {} on the GPU", cpu.row_count(), gpu.row_count());
  if (!compare_rows) return std::nullopt;
  std::vector<Row> a = rows_of(cpu), b = rows_of(gpu);
  order_ties(a);
  order_ties(b);
  if (a.size() != b.size())
    return fmt::format("{} rows on the CPU, {} on the GPU: CPU {}, GPU {}", a.size(), b.size(),
                       first_rows(a), first_rows(b));
  for (size_t i = 0; i < a.size(); ++i) {
    bool same = same_exact(a[i], b[i]) && a[i].floats.size() == b[i].floats.size();
    for (size_t f = 0; same && f < a[i].floats.size(); ++f)
      same = close(a[i].floats[f], b[i].floats[f]);
    if (!same)
      return fmt::format("sorted row {} differs: CPU [{}], GPU [{}]", i + 1, describe(a[i]),
                         describe(b[i]));
  }
  return std::nullopt;
}

}  // namespace tally::fuzz
