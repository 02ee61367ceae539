// CAST between SQL types, with PostgreSQL's rules for rounding and range errors.
#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "compiler/common/date.h"
#include "compiler/common/decimal.h"
#include "compiler/common/interval_value.h"
#include "compiler/common/time_of_day.h"
#include "compiler/common/timestamp.h"
#include "compiler/eval/internal.h"

namespace tally {

using detail::execution_error;

namespace {

// Byte length of the first `chars` UTF-8 characters of s (all of s if it has fewer).
size_t prefix_bytes(std::string_view s, size_t chars) {
  size_t seen = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xc0) != 0x80 && seen++ == chars) return i;
  }
  return s.size();
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

[[noreturn]] void bad_input(const Type& to, std::string_view text) {
  execution_error(fmt::format("invalid input syntax for type {}: \"{}\"", to.to_string(), text));
}

[[noreturn]] void does_not_fit(const Type& to, const std::string& text) {
  execution_error(fmt::format("value {} does not fit {}", text, to.to_string()));
}

Value decimal_checked(int128 v, const Type& to, const std::string& original) {
  if (!fits_precision(v, to.precision)) does_not_fit(to, original);
  return Value::from_decimal(v);
}

// Plain double arithmetic (no long double), so the GPU's generated code gives the same
// result bit for bit.
Value double_to_decimal(double f, const Type& to) {
  if (!std::isfinite(f)) does_not_fit(to, fmt::format("{}", f));
  double scaled = std::round(f * std::pow(10.0, to.scale));
  if (std::fabs(scaled) >= std::pow(10.0, to.precision)) does_not_fit(to, fmt::format("{}", f));
  return Value::from_decimal(static_cast<int128>(scaled));
}

Value from_string(std::string_view raw, const Type& to, StringHeap* strings) {
  std::string_view s = trim(raw);
  switch (to.id) {
    case TypeId::Boolean: {
      std::string lower;
      for (char c : s)
        lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
      // The spellings COPY and string literals accept.
      if (lower == "t" || lower == "true" || lower == "y" || lower == "yes" || lower == "on" ||
          lower == "1")
        return Value::from_bool(true);
      if (lower == "f" || lower == "false" || lower == "n" || lower == "no" || lower == "off" ||
          lower == "0")
        return Value::from_bool(false);
      bad_input(to, raw);
    }
    case TypeId::SmallInt:
    case TypeId::Integer:
    case TypeId::BigInt: {
      int64_t v = 0;
      if (!s.empty() && s.front() == '+') s.remove_prefix(1);
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec == std::errc::result_out_of_range) does_not_fit(to, std::string(s));
      if (ec != std::errc() || end != s.data() + s.size()) bad_input(to, raw);
      return Value::from_int(detail::check_integer_range(v, to));
    }
    case TypeId::Real:
    case TypeId::Double: {
      std::string copy(s);
      char* end = nullptr;
      double v = std::strtod(copy.c_str(), &end);
      if (copy.empty() || end != copy.c_str() + copy.size()) bad_input(to, raw);
      if (to.id == TypeId::Real) v = static_cast<float>(v);
      return Value::from_double(v);
    }
    case TypeId::Decimal: {
      auto v = parse_decimal(s, kMaxDecimalPrecision, to.scale);
      if (!v) bad_input(to, raw);
      return decimal_checked(*v, to, std::string(s));
    }
    case TypeId::HugeInt: {
      bool out_of_range = false;
      auto v = parse_int128(s, &out_of_range);
      if (out_of_range) does_not_fit(to, std::string(s));
      if (!v) bad_input(to, raw);
      return Value::from_decimal(*v);
    }
    case TypeId::Date: {
      auto d = parse_date(s);
      if (!d) bad_input(to, raw);
      return Value::from_int(*d);
    }
    case TypeId::Timestamp:
    case TypeId::TimestampTz:
    case TypeId::Time: {
      auto micros = parse_micros_text(to.id, s);
      if (!micros) bad_input(to, raw);
      return Value::from_int(*micros);
    }
    case TypeId::Interval: {
      auto interval = parse_interval_value(s);
      if (!interval) bad_input(to, raw);
      return interval_value(*interval);
    }
    case TypeId::Varchar: {
      std::string_view kept = cut_string(raw, to);
      return Value::from_int(strings->intern(kept));
    }
    case TypeId::Null:
      return Value();
  }
  return Value();
}

// The session zone is UTC, so TIMESTAMP and TIMESTAMPTZ convert without a shift.
Value from_timestamp(int64_t micros, const Type& from, const Type& to, StringHeap* strings) {
  if (to.is_timestamp()) return Value::from_int(micros);
  if (to.id == TypeId::Date) return Value::from_int(date_of_timestamp(micros));
  if (to.id == TypeId::Time) return Value::from_int(time_of_timestamp(micros));
  if (to.id != TypeId::Varchar) {
    execution_error("cannot cast " + from.to_string() + " to " + to.to_string());
  }
  return Value::from_int(strings->intern(format_micros_text(from.id, micros)));
}

// An integer of any width (a HUGEINT's too) to another type: every narrowing is checked,
// never wrapped.
Value from_integer(int128 v, const Type& to, StringHeap* strings) {
  switch (to.id) {
    case TypeId::Boolean:
      return Value::from_bool(v != 0);
    case TypeId::SmallInt:
    case TypeId::Integer:
    case TypeId::BigInt:
      if (v < INT64_MIN || v > INT64_MAX) does_not_fit(to, int128_to_string(v));
      return Value::from_int(detail::check_integer_range(v, to));
    case TypeId::HugeInt:
      return Value::from_decimal(v);
    case TypeId::Real:
      return Value::from_double(static_cast<float>(v));
    case TypeId::Double:
      return Value::from_double(static_cast<double>(v));
    case TypeId::Decimal: {
      auto up = upscale(v, to.scale);
      if (!up) does_not_fit(to, int128_to_string(v));
      return decimal_checked(*up, to, int128_to_string(v));
    }
    case TypeId::Varchar:
      return Value::from_int(strings->intern(int128_to_string(v)));
    default:
      break;
  }
  execution_error("unsupported cast from an integer to " + to.to_string());
}

Value from_decimal(int128 v, int scale, const Type& to, StringHeap* strings) {
  switch (to.id) {
    case TypeId::SmallInt:
    case TypeId::Integer:
    case TypeId::BigInt: {
      int128 whole = downscale_round(v, scale);
      if (whole < INT64_MIN || whole > INT64_MAX) does_not_fit(to, format_decimal(v, scale));
      return Value::from_int(detail::check_integer_range(whole, to));
    }
    case TypeId::Real:
    case TypeId::Double: {
      // int128 -> double rounds once; 10^scale is exact in a double up to 10^22. The GPU
      // does the same two operations.
      double d = static_cast<double>(v) / std::pow(10.0, scale);
      return Value::from_double(to.id == TypeId::Real ? static_cast<float>(d) : d);
    }
    case TypeId::HugeInt:  // |v| < 10^38 always fits; the fraction rounds as to an integer
      return Value::from_decimal(downscale_round(v, scale));
    case TypeId::Decimal: {
      int128 r;
      if (to.scale >= scale) {
        auto up = upscale(v, to.scale - scale);
        if (!up) does_not_fit(to, format_decimal(v, scale));
        r = *up;
      } else {
        r = downscale_round(v, scale - to.scale);
      }
      return decimal_checked(r, to, format_decimal(v, scale));
    }
    case TypeId::Varchar:
      return Value::from_int(strings->intern(format_decimal(v, scale)));
    default:
      break;
  }
  execution_error("unsupported cast from DECIMAL to " + to.to_string());
}

Value from_double(double f, const Type& to, StringHeap* strings) {
  switch (to.id) {
    case TypeId::SmallInt:
    case TypeId::Integer:
    case TypeId::BigInt: {
      // PostgreSQL rounds float to integer half to even (rint).
      double r = std::nearbyint(f);
      if (!std::isfinite(r) || r < -9.2233720368547758e18 || r >= 9.2233720368547758e18)
        does_not_fit(to, fmt::format("{}", f));
      return Value::from_int(detail::check_integer_range(static_cast<int64_t>(r), to));
    }
    case TypeId::Real:
      return Value::from_double(static_cast<float>(f));
    case TypeId::Double:
      return Value::from_double(f);
    case TypeId::Decimal:
      return double_to_decimal(f, to);
    case TypeId::HugeInt: {
      // Half to even, as to the other integers; 2^127 is exact in a double.
      double r = std::nearbyint(f);
      if (!std::isfinite(r) || r < -0x1p127 || r >= 0x1p127) does_not_fit(to, fmt::format("{}", f));
      return Value::from_decimal(static_cast<int128>(r));
    }
    case TypeId::Varchar:
      return Value::from_int(
          strings->intern(format_value(Value::from_double(f), Type::double_(), nullptr)));
    default:
      break;
  }
  execution_error("unsupported cast from DOUBLE to " + to.to_string());
}

}  // namespace

Value cast_value(const Value& v, const Type& from, const Type& to, StringHeap* strings) {
  if (v.null || to.id == TypeId::Null) return Value();
  switch (from.id) {
    case TypeId::Null:
      return Value();
    case TypeId::Varchar:
      return from_string(strings->get(v.i), to, strings);
    case TypeId::Decimal:
      return from_decimal(v.d, from.scale, to, strings);
    case TypeId::HugeInt:
      return from_integer(v.d, to, strings);
    case TypeId::Real:
    case TypeId::Double:
      return from_double(v.f, to, strings);
    case TypeId::Date:
      if (to.id == TypeId::Date) return v;
      if (to.id == TypeId::Varchar)
        return Value::from_int(strings->intern(format_date(static_cast<int32_t>(v.i))));
      if (to.is_timestamp()) {
        auto micros = timestamp_from_date(v.i);
        if (!micros) execution_error("timestamp out of range");
        return Value::from_int(*micros);
      }
      break;
    case TypeId::Timestamp:
    case TypeId::TimestampTz:
      return from_timestamp(v.i, from, to, strings);
    case TypeId::Time:
      if (to.id == TypeId::Time) return v;
      if (to.id == TypeId::Varchar) {
        return Value::from_int(strings->intern(format_micros_text(from.id, v.i)));
      }
      break;
    case TypeId::Interval:
      if (to.is_interval()) return v;
      if (to.id == TypeId::Varchar) {
        return Value::from_int(strings->intern(format_interval(as_interval(v))));
      }
      break;
    case TypeId::Boolean:
      if (to.id == TypeId::Varchar) return Value::from_int(strings->intern(v.i ? "true" : "false"));
      return from_integer(v.i, to, strings);
    default:
      return from_integer(v.i, to, strings);
  }
  execution_error("cannot cast " + from.to_string() + " to " + to.to_string());
}

std::string_view cut_string(std::string_view s, const Type& type) {
  if (type.fixed_length) {
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  }
  // Bytes are never fewer than characters, so only long values need counting.
  if (type.length > 0 && s.size() > type.length) s = s.substr(0, prefix_bytes(s, type.length));
  return s;
}

std::optional<std::string_view> fit_string(std::string_view s, const Type& type) {
  std::string_view kept = cut_string(s, type);
  if (s.substr(kept.size()).find_first_not_of(' ') != std::string_view::npos) return std::nullopt;
  return kept;
}

}  // namespace tally
