// The numeric and date functions of ExprKind::Function on the host, with PostgreSQL's
// results and errors (the GPU raises the same errors through status bits:
// templates/tally_status.cuh).
#include <algorithm>
#include <cmath>

#include "compiler/common/decimal.h"
#include "compiler/eval/internal.h"
#include "templates/tally_date_parts.cuh"

namespace tally::detail {

namespace {

// v / 10^by rounded toward minus infinity (floor), plus infinity (ceil) or zero (trunc).
int128 decimal_drop_digits(int128 v, int by, int fn) {
  const int128 unit = pow10_128(std::min(by, 38));
  int128 q = by > 38 ? 0 : v / unit;
  const int128 rem = by > 38 ? v : v % unit;
  if (fn == kFloor && rem < 0) q -= 1;
  if (fn == kCeil && rem > 0) q += 1;
  return q;
}

Value decimal_rounding(const Expr& e, int128 v) {
  const int sa = e.children[0]->type.scale;
  const int n = e.digits;
  if (n >= sa) return Value::from_decimal(decimal_or_overflow(upscale(v, e.type.scale - sa)));
  const int128 q = decimal_drop_digits(v, sa - n, e.op);
  if (n >= 0) return Value::from_decimal(q);
  // Negative digits truncate to tens, hundreds...: the result keeps scale 0.
  return Value::from_decimal(decimal_or_overflow(checked_mul(q, pow10_128(std::min(-n, 38)))));
}

double float_rounding(int fn, double x, int digits) {
  if (!std::isfinite(x) || digits > 300) return x;
  const double scale = std::pow(10.0, digits);
  const double scaled = digits == 0 ? x : x * scale;
  const double r = fn == kFloor  ? std::floor(scaled)
                   : fn == kCeil ? std::ceil(scaled)
                                 : std::trunc(scaled);
  return digits == 0 ? r : r / scale;
}

Value integer_rounding(const Expr& e, int64_t v) {
  if (e.digits >= 0) return Value::from_int(v);  // FLOOR/CEIL of an integer is itself
  if (e.digits < -18) return Value::from_int(0);
  const auto unit = static_cast<int64_t>(pow10_128(-e.digits));
  return Value::from_int(v / unit * unit);  // TRUNC toward zero
}

Value rounding(const Expr& e, const Value& v) {
  if (e.type.is_decimal()) return decimal_rounding(e, v.d);
  if (e.type.is_float()) return Value::from_double(float_rounding(e.op, v.f, e.digits));
  return integer_rounding(e, v.i);
}

Value sign(const Expr& e, const Value& v) {
  if (e.type.is_decimal()) return Value::from_decimal(v.d > 0 ? 1 : (v.d < 0 ? -1 : 0));
  if (e.type.is_float()) return Value::from_double(v.f > 0 ? 1.0 : (v.f < 0 ? -1.0 : v.f));
  return Value::from_int(v.i > 0 ? 1 : (v.i < 0 ? -1 : 0));
}

void check_logarithm(double x) {
  if (x == 0) execution_error("cannot take logarithm of zero");
  if (x < 0) execution_error("cannot take logarithm of a negative number");
}

double power(double a, double b) {
  if (a == 0 && b < 0) execution_error("zero raised to a negative power is undefined");
  if (a < 0 && std::isfinite(b) && std::floor(b) != b) {
    execution_error("a negative number raised to a non-integer power yields a complex result");
  }
  return std::pow(a, b);
}

double double_function(int fn, const std::vector<Value>& args) {
  const double x = args[0].f;
  switch (fn) {
    case kSqrt:
      if (x < 0) execution_error("cannot take square root of a negative number");
      return std::sqrt(x);
    case kLn:
      check_logarithm(x);
      return std::log(x);
    case kLog10:
      check_logarithm(x);
      return std::log10(x);
    case kLogBase: {
      check_logarithm(x);
      check_logarithm(args[1].f);
      const double base = std::log(x);
      if (base == 0) execution_error("division by zero");
      return std::log(args[1].f) / base;
    }
    case kExp:
      return std::exp(x);
    default:
      return power(x, args[1].f);
  }
}

// GREATEST/LEAST skip NULLs (PostgreSQL): NULL only when every argument is.
Value extremum(const Expr& e, const std::vector<Value>& args, const StringHeap* strings) {
  Value best;
  for (const Value& v : args) {
    if (v.null) continue;
    if (best.null) {
      best = v;
      continue;
    }
    const int c = compare_values(v, best, e.type, strings);
    if (e.op == kGreatest ? c > 0 : c < 0) best = v;
  }
  return best;
}

}  // namespace

Value eval_numeric_function(const Expr& e, const std::vector<Value>& args,
                            const StringHeap* strings) {
  if (e.op == kGreatest || e.op == kLeast) return extremum(e, args, strings);
  for (const Value& v : args) {
    if (v.null) return Value();
  }
  switch (e.op) {
    case kFloor:
    case kCeil:
    case kTrunc:
      return rounding(e, args[0]);
    case kSign:
      return sign(e, args[0]);
    case kDateTrunc:
      // A TIMESTAMP truncates inside its own range: 0001-01-01 starts every period.
      if (e.type.is_timestamp()) {
        return Value::from_int(tally_dates::timestamp_trunc(args[0].i, e.digits));
      }
      return Value::from_int(
          check_integer_range(tally_dates::date_trunc_days(args[0].i, e.digits), Type::date()));
    default:
      return Value::from_double(double_function(e.op, args));
  }
}

Value eval_extract(const Expr& e, const Value& v) {
  if (v.null) return v;
  if (e.children[0]->type.is_interval()) return interval_field(v, e.op);
  if (e.children[0]->type.is_timestamp()) {
    return Value::from_int(tally_dates::timestamp_field(v.i, e.op));
  }
  if (e.children[0]->type.id == TypeId::Time) {
    return Value::from_int(tally_dates::time_field(v.i, e.op));
  }
  return Value::from_int(tally_dates::date_field(v.i, e.op));
}

}  // namespace tally::detail
