// Arithmetic with SQL semantics: checked integers, exact DECIMAL, DOUBLE, DATE +/- days.
#include <cmath>
#include <limits>

#include "compiler/common/decimal.h"
#include "compiler/eval/internal.h"

namespace tally::detail {

int64_t check_integer_range(int128 v, const Type& type) {
  int128 lo, hi;
  const char* name;
  switch (type.id) {
    case TypeId::SmallInt:
      lo = INT16_MIN, hi = INT16_MAX, name = "smallint";
      break;
    case TypeId::Integer:
      lo = INT32_MIN, hi = INT32_MAX, name = "integer";
      break;
    case TypeId::Date:
      lo = INT32_MIN, hi = INT32_MAX, name = "date";
      break;
    default:
      lo = INT64_MIN, hi = INT64_MAX, name = "bigint";
      break;
  }
  if (v < lo || v > hi) execution_error(std::string(name) + " out of range");
  return static_cast<int64_t>(v);
}

int128 decimal_or_overflow(std::optional<int128> v) {
  if (!v || !fits_precision(*v, kMaxDecimalPrecision)) {
    execution_error("numeric overflow: a DECIMAL result exceeds 38 digits");
  }
  return *v;
}

int128 negate_hugeint(int128 v) {
  auto r = checked_sub(0, v);
  if (!r) execution_error("hugeint out of range");
  return *r;
}

namespace {

Value integer_arith(int op, int64_t a, int64_t b, const Type& type) {
  int128 x = a, y = b, r = 0;
  switch (op) {
    case kAdd:
      r = x + y;
      break;
    case kSub:
      r = x - y;
      break;
    case kMul:
      r = x * y;
      break;
    case kDiv:
      if (y == 0) execution_error("division by zero");
      r = x / y;  // truncates toward zero, as SQL integer division does
      break;
    case kMod:
      if (y == 0) execution_error("division by zero");
      r = x % y;  // sign of the dividend
      break;
  }
  return Value::from_int(check_integer_range(r, type));
}

Value hugeint_arith(int op, int128 a, int128 b) {
  std::optional<int128> r;
  switch (op) {
    case kAdd:
      r = checked_add(a, b);
      break;
    case kSub:
      r = checked_sub(a, b);
      break;
    case kMul:
      r = checked_mul(a, b);
      break;
    case kDiv:
    case kMod:
      if (b == 0) execution_error("division by zero");
      // -2^127 / -1 is the one quotient past the range; its remainder is 0.
      if (b == -1)
        r = op == kMod ? std::optional<int128>(0) : checked_sub(0, a);
      else
        r = op == kDiv ? a / b : a % b;
      break;
  }
  if (!r) execution_error("hugeint out of range");
  return Value::from_decimal(*r);
}

Value decimal_arith(int op, int128 a, int sa, int128 b, int sb, const Type& type) {
  const int s = type.scale;
  switch (op) {
    case kAdd:
      return Value::from_decimal(decimal_or_overflow(checked_add(
          decimal_or_overflow(upscale(a, s - sa)), decimal_or_overflow(upscale(b, s - sb)))));
    case kSub:
      return Value::from_decimal(decimal_or_overflow(checked_sub(
          decimal_or_overflow(upscale(a, s - sa)), decimal_or_overflow(upscale(b, s - sb)))));
    case kMul:
      return Value::from_decimal(decimal_or_overflow(checked_mul(a, b)));
    case kDiv: {
      if (b == 0) execution_error("division by zero");
      // a/10^sa / (b/10^sb) at scale s = a * 10^(s - sa + sb) / b, rounded.
      int128 num = decimal_or_overflow(upscale(a, s - sa + sb));
      return Value::from_decimal(div_round(num, b));
    }
    case kMod: {
      if (b == 0) execution_error("division by zero");
      int128 x = decimal_or_overflow(upscale(a, s - sa));
      int128 y = decimal_or_overflow(upscale(b, s - sb));
      return Value::from_decimal(x % y);
    }
  }
  return Value();
}

Value double_arith(int op, double a, double b) {
  switch (op) {
    case kAdd:
      return Value::from_double(a + b);
    case kSub:
      return Value::from_double(a - b);
    case kMul:
      return Value::from_double(a * b);
    case kDiv:
      if (b == 0) execution_error("division by zero");
      return Value::from_double(a / b);
    case kMod:
      if (b == 0) execution_error("division by zero");
      return Value::from_double(std::fmod(a, b));
  }
  return Value();
}

}  // namespace

Value eval_arith(const Expr& e, const Value& a, const Value& b) {
  if (a.null || b.null) return Value();
  const Type& ta = e.children[0]->type;
  const Type& tb = e.children[1]->type;
  if (e.type.is_interval() || ta.is_interval() || tb.is_interval()) {
    return eval_interval_arith(e, a, b);
  }
  if (e.type.is_decimal()) return decimal_arith(e.op, a.d, ta.scale, b.d, tb.scale, e.type);
  if (e.type.is_hugeint()) return hugeint_arith(e.op, a.d, b.d);
  if (e.type.is_float()) return double_arith(e.op, a.f, b.f);
  // Integers, and DATE +/- INTEGER days, DATE - DATE = INTEGER days.
  return integer_arith(e.op, a.i, b.i, e.type);
}

Value eval_abs(const Expr& e, const Value& v) {
  if (v.null) return v;
  if (e.type.is_decimal()) return Value::from_decimal(v.d < 0 ? -v.d : v.d);
  if (e.type.is_hugeint()) return Value::from_decimal(v.d < 0 ? negate_hugeint(v.d) : v.d);
  if (e.type.is_float()) return Value::from_double(std::fabs(v.f));
  return Value::from_int(check_integer_range(v.i < 0 ? -static_cast<int128>(v.i) : v.i, e.type));
}

Value eval_round(const Expr& e, const Value& v) {
  if (v.null) return v;
  const Type& from = e.children[0]->type;
  const int n = e.digits;
  if (from.is_decimal()) {
    int sa = from.scale;
    int128 r;
    if (n >= sa) {
      r = decimal_or_overflow(upscale(v.d, e.type.scale - sa));
    } else if (n >= 0) {
      r = downscale_round(v.d, sa - n);
    } else {
      // Negative digits round to tens, hundreds...: the result keeps scale 0.
      r = decimal_or_overflow(
          checked_mul(downscale_round(v.d, sa - n), pow10_128(std::min(-n, 38))));
    }
    return Value::from_decimal(r);
  }
  if (from.is_float()) {
    if (n > 300 || !std::isfinite(v.f)) return v;
    // Double arithmetic, as the generated GPU code does it.
    double scale = std::pow(10.0, n);
    return Value::from_double(std::round(v.f * scale) / scale);
  }
  if (n >= 0) return v;
  if (from.is_hugeint()) {
    if (-n > 38) return Value::from_decimal(0);  // |v| < 2 x 10^38 rounds to 0 (or overflows)
    int128 unit = pow10_128(-n);
    auto r = checked_mul(div_round(v.d, unit), unit);
    if (!r) execution_error("hugeint out of range");
    return Value::from_decimal(*r);
  }
  int128 unit = pow10_128(std::min(-n, 38));
  return Value::from_int(check_integer_range(div_round(v.i, unit) * unit, e.type));
}

}  // namespace tally::detail
