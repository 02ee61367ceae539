// Order and text of single values: what ORDER BY, MIN/MAX, comparisons and printing share.
#include "compiler/common/value_ops.h"

#include <fmt/format.h>

#include <cmath>

#include "compiler/common/date.h"
#include "compiler/common/decimal.h"
#include "compiler/common/interval_value.h"
#include "compiler/common/time_of_day.h"

namespace tally {

int compare_decimal(int128 a, int sa, int128 b, int sb) {
  // Align scales; if that overflows, the side that overflowed is the larger in magnitude.
  if (sa != sb) {
    if (sa < sb) {
      auto up = upscale(a, sb - sa);
      if (!up) return a < 0 ? -1 : 1;
      a = *up;
    } else {
      auto up = upscale(b, sa - sb);
      if (!up) return b < 0 ? 1 : -1;
      b = *up;
    }
  }
  return a < b ? -1 : (a > b ? 1 : 0);
}

namespace {

int compare_doubles(double a, double b) {
  // NaN sorts above every other value and equals itself (PostgreSQL).
  bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

}  // namespace

int compare_values(const Value& a, const Value& b, const Type& type, const StringHeap* strings) {
  switch (type.id) {
    case TypeId::Decimal:
      return compare_decimal(a.d, type.scale, b.d, type.scale);
    case TypeId::HugeInt:
      return a.d < b.d ? -1 : (a.d > b.d ? 1 : 0);
    case TypeId::Real:
    case TypeId::Double:
      return compare_doubles(a.f, b.f);
    case TypeId::Interval: {
      const int128 x = interval_span(as_interval(a)), y = interval_span(as_interval(b));
      return x < y ? -1 : (x > y ? 1 : 0);
    }
    case TypeId::Varchar:
      if (a.i == b.i) return 0;
      return strings->get(a.i).compare(strings->get(b.i)) < 0 ? -1 : 1;
    default:
      return a.i < b.i ? -1 : (a.i > b.i ? 1 : 0);
  }
}

Value hash_payload(const Value& v, const Type& type) {
  if (v.null) return Value();
  if (type.is_float()) {
    if (v.f == 0.0) return Value::from_double(0.0);
    if (std::isnan(v.f)) return Value::from_double(std::nan(""));
  }
  if (type.is_interval()) return Value::from_decimal(interval_span(as_interval(v)));
  return v;
}

namespace {

std::string format_double(double v, bool single) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  // Shortest text that reads back as the same value.
  return single ? fmt::format("{}", static_cast<float>(v)) : fmt::format("{}", v);
}

}  // namespace

std::string format_value(const Value& v, const Type& type, const StringHeap* strings) {
  if (v.null) return "NULL";
  switch (type.id) {
    case TypeId::Null:
      return "NULL";
    case TypeId::Boolean:
      return v.i ? "true" : "false";
    case TypeId::SmallInt:
    case TypeId::Integer:
    case TypeId::BigInt:
      return std::to_string(v.i);
    case TypeId::Real:
      return format_double(v.f, true);
    case TypeId::Double:
      return format_double(v.f, false);
    case TypeId::Decimal:
      return format_decimal(v.d, type.scale);
    case TypeId::HugeInt:
      return int128_to_string(v.d);
    case TypeId::Date:
      return format_date(static_cast<int32_t>(v.i));
    case TypeId::Timestamp:
    case TypeId::TimestampTz:
    case TypeId::Time:
      return format_micros_text(type.id, v.i);
    case TypeId::Interval:
      return format_interval(as_interval(v));
    case TypeId::Varchar:
      return strings->get(v.i);
  }
  return "?";
}

}  // namespace tally
