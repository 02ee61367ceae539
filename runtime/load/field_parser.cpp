#include "runtime/load/field_parser.h"

#include <charconv>
#include <limits>

#include "compiler/common/date.h"
#include "compiler/common/decimal.h"
#include "compiler/common/interval_value.h"
#include "compiler/common/time_of_day.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

// The field as an error message shows it (long values shortened).
std::string quoted(std::string_view text) {
  constexpr size_t kShown = 60;
  if (text.size() > kShown) return "\"" + std::string(text.substr(0, kShown)) + "...\"";
  return "\"" + std::string(text) + "\"";
}

enum class Problem { Invalid, OutOfRange };

bool fail(std::string& error, const Type& type, std::string_view text, Problem problem) {
  if (problem == Problem::Invalid) {
    error = "invalid " + type.to_string() + " value " + quoted(text);
  } else {
    error = type.to_string() + " value " + quoted(text) + " out of range";
  }
  return false;
}

// Parses the whole field (spaces around it allowed) as a T; false with `error` set if it
// is not a number or does not fit T.
template <typename T>
bool parse_number(const Type& type, std::string_view text, T& value, std::string& error) {
  std::string_view t = trim_spaces(text);
  // from_chars takes no '+' sign; a second sign after it stays an error.
  if (t.size() > 1 && t[0] == '+' && t[1] != '-') t.remove_prefix(1);
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec == std::errc::result_out_of_range) return fail(error, type, text, Problem::OutOfRange);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) {
    return fail(error, type, text, Problem::Invalid);
  }
  return true;
}

bool append_integer(const Type& type, std::string_view text, ColumnBuilder& builder,
                    std::string& error) {
  int64_t v = 0;
  if (!parse_number(type, text, v, error)) return false;
  int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  if (type.id == TypeId::SmallInt) lo = -32768, hi = 32767;
  if (type.id == TypeId::Integer) {
    lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
  }
  if (v < lo || v > hi) return fail(error, type, text, Problem::OutOfRange);
  builder.append_int(v);
  return true;
}

template <typename T>
bool append_float(const Type& type, std::string_view text, ColumnBuilder& builder,
                  std::string& error) {
  T v{};
  if (!parse_number(type, text, v, error)) return false;
  builder.append_double(v);
  return true;
}

bool append_decimal(const Type& type, std::string_view text, ColumnBuilder& builder,
                    std::string& error) {
  auto v = parse_decimal(text, type.precision, type.scale);
  if (!v) {
    // A number that does not fit the precision is out of range; anything else is invalid.
    bool number = parse_decimal(text, kMaxDecimalPrecision, type.scale).has_value();
    return fail(error, type, text, number ? Problem::OutOfRange : Problem::Invalid);
  }
  builder.append_wide(*v);
  return true;
}

bool append_hugeint(const Type& type, std::string_view text, ColumnBuilder& builder,
                    std::string& error) {
  bool out_of_range = false;
  auto v = parse_int128(trim_spaces(text), &out_of_range);
  if (!v) return fail(error, type, text, out_of_range ? Problem::OutOfRange : Problem::Invalid);
  builder.append_wide(*v);
  return true;
}

bool equals_lower(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i]) return false;
  }
  return true;
}

bool append_boolean(const Type& type, std::string_view text, ColumnBuilder& builder,
                    std::string& error) {
  std::string_view t = trim_spaces(text);
  for (std::string_view yes : {"t", "true", "1", "yes", "y", "on"}) {
    if (equals_lower(t, yes)) return builder.append_int(1), true;
  }
  for (std::string_view no : {"f", "false", "0", "no", "n", "off"}) {
    if (equals_lower(t, no)) return builder.append_int(0), true;
  }
  return fail(error, type, text, Problem::Invalid);
}

bool append_string(const Type& type, std::string_view text, ColumnBuilder& builder,
                   std::string& error) {
  std::optional<std::string_view> fitted = fit_string(text, type);
  if (!fitted) {
    error = "value too long for " + type.to_string() + ": " + quoted(text);
    return false;
  }
  builder.append_string(*fitted);
  return true;
}

}  // namespace

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool append_field(const ColumnSchema& column, std::string_view text, ColumnBuilder& builder,
                  std::string& error) {
  const Type& type = column.type;
  switch (type.id) {
    case TypeId::SmallInt:
    case TypeId::Integer:
    case TypeId::BigInt:
      return append_integer(type, text, builder, error);
    case TypeId::Real:
      return append_float<float>(type, text, builder, error);
    case TypeId::Double:
      return append_float<double>(type, text, builder, error);
    case TypeId::Decimal:
      return append_decimal(type, text, builder, error);
    case TypeId::HugeInt:
      return append_hugeint(type, text, builder, error);
    case TypeId::Boolean:
      return append_boolean(type, text, builder, error);
    case TypeId::Varchar:
      return append_string(type, text, builder, error);
    case TypeId::Date: {
      auto days = parse_date(text);
      if (!days) return fail(error, type, text, Problem::Invalid);
      builder.append_int(*days);
      return true;
    }
    case TypeId::Timestamp:
    case TypeId::TimestampTz:
    case TypeId::Time: {
      auto micros = parse_micros_text(type.id, text);
      if (!micros) return fail(error, type, text, Problem::Invalid);
      builder.append_int(*micros);
      return true;
    }
    case TypeId::Interval: {
      auto interval = parse_interval_value(text);
      if (!interval) return fail(error, type, text, Problem::Invalid);
      builder.append_wide(pack_interval(*interval));
      return true;
    }
    case TypeId::Null:
      break;
  }
  error = "cannot load a column of type " + type.to_string();
  return false;
}

}  // namespace tally
