#include "runtime/load/column_guess.h"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "compiler/common/date.h"
#include "compiler/common/decimal.h"
#include "runtime/load/field_parser.h"

namespace tally {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_numeric_kind(GuessKind kind) {
  return kind == GuessKind::BigInt || kind == GuessKind::Decimal || kind == GuessKind::Double;
}

// yyyy-mm-dd exactly, and a real day: the loader's parse_date decides validity.
bool is_iso_date(std::string_view t) {
  if (t.size() != 10 || t[4] != '-' || t[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!is_digit(t[i])) return false;
  }
  return parse_date(t).has_value();
}

// A number as the loader reads it: [sign] digits [. digits] [e [sign] digits].
std::optional<ColumnGuess> guess_number(std::string_view t) {
  size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  size_t int_begin = i;
  while (i < t.size() && is_digit(t[i])) ++i;
  size_t int_end = i;
  bool point = i < t.size() && t[i] == '.';
  size_t frac_begin = point ? ++i : i;
  while (i < t.size() && is_digit(t[i])) ++i;
  int scale = static_cast<int>(i - frac_begin);
  if (int_end == int_begin && scale == 0) return std::nullopt;
  bool exponent = i < t.size() && (t[i] == 'e' || t[i] == 'E');
  if (exponent) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    size_t exp_begin = i;
    while (i < t.size() && is_digit(t[i])) ++i;
    if (i == exp_begin) return std::nullopt;
  }
  if (i != t.size()) return std::nullopt;
  if (exponent) return ColumnGuess{GuessKind::Double, 0, 0};

  size_t first_significant = int_begin;
  while (first_significant < int_end && t[first_significant] == '0') ++first_significant;
  int digits = static_cast<int>(int_end - first_significant);
  if (digits + scale > kMaxDecimalPrecision) return ColumnGuess{GuessKind::Double, 0, 0};
  if (!point) {
    int64_t value = 0;
    std::string_view whole = t.substr(t[0] == '+' ? 1 : 0);
    auto [end, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), value);
    if (ec == std::errc() && end == whole.data() + whole.size()) {
      return ColumnGuess{GuessKind::BigInt, digits, 0};
    }
  }
  return ColumnGuess{GuessKind::Decimal, digits, scale};
}

}  // namespace

ColumnGuess guess_field(std::string_view text, bool quoted) {
  if (text.empty() && !quoted) return {};
  std::string_view t = trim_spaces(text);
  if (auto number = guess_number(t)) return *number;
  if (is_iso_date(t)) return {GuessKind::Date, 0, 0};
  return {GuessKind::Varchar, 0, 0};
}

void ColumnGuess::add(const ColumnGuess& field) {
  if (field.kind == GuessKind::Null) return;
  if (kind == GuessKind::Null) {
    *this = field;
    return;
  }
  if (is_numeric_kind(kind) && is_numeric_kind(field.kind)) {
    kind = std::max(kind, field.kind);
    integer_digits = std::max(integer_digits, field.integer_digits);
    scale = std::max(scale, field.scale);
    // DECIMAL holds 38 digits; past them only DOUBLE holds the column.
    if (kind == GuessKind::Decimal && integer_digits + scale > kMaxDecimalPrecision) {
      kind = GuessKind::Double;
    }
    return;
  }
  if (kind != field.kind) kind = GuessKind::Varchar;
}

Type ColumnGuess::type() const {
  switch (kind) {
    case GuessKind::BigInt:
      return Type::bigint();
    case GuessKind::Decimal:
      return Type::decimal(std::max(1, integer_digits + scale), scale);
    case GuessKind::Double:
      return Type::double_();
    case GuessKind::Date:
      return Type::date();
    case GuessKind::Null:
    case GuessKind::Varchar:
      break;
  }
  return Type::varchar();
}

}  // namespace tally
