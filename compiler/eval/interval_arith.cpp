// The operators that make or take an INTERVAL, with PostgreSQL's results and errors
// (compiler/common/interval_math.h has the rules).
#include "compiler/common/interval_math.h"
#include "compiler/common/time_of_day.h"
#include "compiler/common/timestamp.h"
#include "compiler/eval/internal.h"
#include "templates/tally_date_parts.cuh"

namespace tally::detail {

namespace {

Value interval_or_error(std::optional<Interval> iv) {
  if (!iv) execution_error("interval out of range");
  return interval_value(*iv);
}

// A timestamp or TIME +/- an interval; a TIME keeps only the interval's micros (PostgreSQL).
Value shift_by_interval(const Type& type, int64_t value, Interval iv, int op) {
  if (op == kSub) {
    auto negated = negate_interval(iv);
    if (!negated) execution_error("interval out of range");
    iv = *negated;
  }
  if (type.id == TypeId::Time) return Value::from_int(add_to_time(value, iv.micros));
  auto micros = add_to_timestamp(value, iv.months, iv.days, iv.micros);
  if (!micros) execution_error("timestamp out of range");
  return Value::from_int(*micros);
}

}  // namespace

Value eval_interval_arith(const Expr& e, const Value& a, const Value& b) {
  if (a.null || b.null) return Value();
  const Type& ta = e.children[0]->type;
  const Type& tb = e.children[1]->type;
  if (ta.is_interval() && tb.is_interval()) {
    const Interval x = as_interval(a), y = as_interval(b);
    return interval_or_error(e.op == kAdd ? add_intervals(x, y) : subtract_intervals(x, y));
  }
  if (ta.is_interval()) {  // interval * or / a DOUBLE
    if (e.op == kMul) return interval_or_error(multiply_interval(as_interval(a), b.f));
    if (b.f == 0) execution_error("division by zero");
    return interval_or_error(divide_interval(as_interval(a), b.f));
  }
  if (tb.is_interval()) return shift_by_interval(ta, a.i, as_interval(b), e.op);
  // The difference of two times, or of two timestamps in days and time.
  if (ta.id == TypeId::Time) return interval_value({0, 0, a.i - b.i});
  return interval_or_error(timestamp_difference(a.i, b.i));
}

Value eval_interval_negate(const Value& v) {
  if (v.null) return v;
  return interval_or_error(negate_interval(as_interval(v)));
}

Value interval_field(const Value& v, int field) {
  const Interval iv = as_interval(v);
  const int64_t years = iv.months / 12;
  switch (field) {
    case kYear:
      return Value::from_int(years);
    case kMonth:
      return Value::from_int(iv.months % 12);
    case kDay:
      return Value::from_int(iv.days);
    case kQuarter:
      return Value::from_int(iv.months % 12 / 3 + 1);
    case kDecade:
      return Value::from_int(years / 10);
    case kCentury:
      return Value::from_int(years / 100);
    case kMillennium:
      return Value::from_int(years / 1000);
    case kEpoch: {
      // PostgreSQL's year of 365.25 days and month of 30, in whole seconds (toward zero).
      const int128 seconds = static_cast<int128>(years) * 31'557'600 +
                             static_cast<int128>(iv.months % 12) * 30 * 86'400 +
                             static_cast<int128>(iv.days) * 86'400 + iv.micros / kMicrosPerSecond;
      return Value::from_int(check_integer_range(seconds, Type::bigint()));
    }
    default:  // HOUR ... MICROSECOND of the time part, which may pass 24 hours
      return Value::from_int(tally_dates::time_field(iv.micros, field));
  }
}

}  // namespace tally::detail
