#include "compiler/bind/literals.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>
#include <string>

#include "compiler/common/date.h"
#include "compiler/common/decimal.h"
#include "compiler/common/interval_value.h"
#include "compiler/common/timestamp.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

ExprPtr constant_at(Value value, Type type, std::string_view text, SourceLocation location) {
  auto e = std::make_shared<Expr>(*make_constant(value, type, std::string(text)));
  e->location = location;
  return e;
}

[[noreturn]] void fail_input_syntax(const Type& target, std::string_view text,
                                    SourceLocation location) {
  throw Error(ErrorKind::Type,
              fmt::format("invalid input syntax for type {}: \"{}\"", target.to_string(), text),
              location);
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
}

// digits: one or more decimal digits, no sign.
ExprPtr signed_integer_literal(bool negative, std::string_view digits, std::string_view text,
                               SourceLocation location) {
  while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
  if (static_cast<int>(digits.size()) > kMaxDecimalPrecision) {
    throw Error(ErrorKind::Type,
                fmt::format("integer literal {} is out of range (more than {} digits)", text,
                            kMaxDecimalPrecision),
                location);
  }
  int128 magnitude = 0;
  for (char c : digits) magnitude = magnitude * 10 + (c - '0');
  int128 v = negative ? -magnitude : magnitude;
  if (v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max()) {
    return constant_at(Value::from_int(static_cast<int64_t>(v)), Type::integer(), text, location);
  }
  if (v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max()) {
    return constant_at(Value::from_int(static_cast<int64_t>(v)), Type::bigint(), text, location);
  }
  return constant_at(Value::from_decimal(v), Type::decimal(static_cast<int>(digits.size()), 0),
                     text, location);
}

// A number spelled as text, possibly signed: its literal type by the rules above, or null.
ExprPtr numeric_text_literal(std::string_view text, SourceLocation location) {
  std::string_view body = trim(text);
  bool negative = false;
  if (!body.empty() && (body.front() == '-' || body.front() == '+')) {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (all_digits(body)) return signed_integer_literal(negative, body, text, location);
  bool has_exponent = body.find_first_of("eE") != std::string_view::npos;
  size_t point = body.find('.');
  if (!has_exponent && point != std::string_view::npos) {
    std::string_view before = body.substr(0, point), after = body.substr(point + 1);
    bool well_formed = (before.empty() || all_digits(before)) &&
                       (after.empty() || all_digits(after)) && before.size() + after.size() > 0;
    if (!well_formed) return nullptr;
    ExprPtr lit = decimal_literal(body, location);
    if (!negative) return lit;
    auto negated = std::make_shared<Expr>(*lit);
    negated->value.d = -negated->value.d;
    negated->text = std::string(text);
    return negated;
  }
  bool float_chars = body.find_first_not_of("0123456789.eE+-") == std::string_view::npos;
  if (has_exponent && float_chars && body.front() != '+' && body.front() != '-') {
    try {
      return float_literal(trim(text), location);
    } catch (const Error&) {
      return nullptr;
    }
  }
  return nullptr;
}

std::optional<bool> parse_boolean_text(std::string_view text) {
  std::string s(trim(text));
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "true" || s == "t" || s == "yes" || s == "y" || s == "on" || s == "1") return true;
  if (s == "false" || s == "f" || s == "no" || s == "n" || s == "off" || s == "0") return false;
  return std::nullopt;
}

ExprPtr typed_string_constant(std::string_view text, const Type& type, SourceLocation location) {
  auto e = std::make_shared<Expr>(*make_string_constant(std::string(text), std::string(text)));
  e->type = type;
  e->location = location;
  return e;
}

}  // namespace

ExprPtr integer_literal(std::string_view digits, SourceLocation location) {
  if (!all_digits(digits)) {
    throw Error(ErrorKind::Type, fmt::format("invalid integer literal \"{}\"", digits), location);
  }
  return signed_integer_literal(false, digits, digits, location);
}

ExprPtr decimal_literal(std::string_view text, SourceLocation location) {
  auto [before, after] = decimal_literal_shape(text);
  int precision = std::max(1, before + after);
  if (precision > kMaxDecimalPrecision) {
    throw Error(
        ErrorKind::Type,
        fmt::format("decimal literal {} has more than {} digits", text, kMaxDecimalPrecision),
        location);
  }
  auto unscaled = parse_decimal(text, precision, after);
  if (!unscaled) fail_input_syntax(Type::decimal(precision, after), text, location);
  return constant_at(Value::from_decimal(*unscaled), Type::decimal(precision, after), text,
                     location);
}

ExprPtr float_literal(std::string_view text, SourceLocation location) {
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE) {
    fail_input_syntax(Type::double_(), text, location);
  }
  return constant_at(Value::from_double(v), Type::double_(), text, location);
}

ExprPtr date_literal(std::string_view text, SourceLocation location) {
  auto days = parse_date(trim(text));
  if (!days) fail_input_syntax(Type::date(), text, location);
  return constant_at(Value::from_int(*days), Type::date(), text, location);
}

ExprPtr timestamp_literal(std::string_view text, SourceLocation location) {
  auto micros = parse_timestamp(trim(text));
  if (!micros) fail_input_syntax(Type::timestamp(), text, location);
  return constant_at(Value::from_int(*micros), Type::timestamp(), text, location);
}

ExprPtr interval_literal(const IntervalParts& parts, std::string_view text,
                         SourceLocation location) {
  auto interval = interval_from_parts(parts);
  if (!interval) throw Error(ErrorKind::Execution, "interval out of range", location);
  return constant_at(interval_value(*interval), Type::interval(), text, location);
}

ExprPtr boolean_literal(bool value, SourceLocation location) {
  return constant_at(Value::from_bool(value), Type::boolean(), value ? "TRUE" : "FALSE", location);
}

ExprPtr string_literal(std::string_view text, SourceLocation location) {
  return typed_string_constant(text, Type::varchar(), location);
}

ExprPtr string_literal_as(std::string_view text, const Type& target, SourceLocation location) {
  if (target.id == TypeId::Date) return date_literal(text, location);
  if (target.id == TypeId::Timestamp) return timestamp_literal(text, location);
  // A HUGEINT's text may pass 38 digits, which a numeric literal may not.
  if (target.id == TypeId::TimestampTz || target.id == TypeId::Time || target.is_hugeint() ||
      target.is_interval()) {
    return cast_string_literal(text, target, location);
  }
  if (target.id == TypeId::Boolean) {
    auto b = parse_boolean_text(text);
    if (!b) fail_input_syntax(target, text, location);
    return constant_at(Value::from_bool(*b), Type::boolean(), text, location);
  }
  if (target.is_numeric()) {
    ExprPtr lit = numeric_text_literal(text, location);
    if (!lit) fail_input_syntax(target, text, location);
    return lit;
  }
  return string_literal(text, location);
}

ExprPtr cast_string_literal(std::string_view text, const Type& target, SourceLocation location) {
  if (target.is_string()) {
    return typed_string_constant(cut_string(text, target), target, location);
  }
  // The run-time cast from VARCHAR, so that CAST('1.5' AS INTEGER) means what it means on a
  // column holding '1.5' (an error, as in PostgreSQL), not a cast of the numeric literal 1.5.
  try {
    StringHeap strings;
    Value string = Value::from_int(strings.intern(text));
    Value cast = cast_value(string, Type::varchar(), target, &strings);
    return constant_at(cast, target, text, location);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Execution) throw;
    throw Error(ErrorKind::Type, e.what(), location);  // the message names the text and type
  }
}

}  // namespace tally
