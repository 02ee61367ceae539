#include "compiler/plan/value_bounds.h"

#include <algorithm>
#include <cmath>

#include "compiler/common/date.h"
#include "templates/tally_date_parts.cuh"

namespace tally {

namespace {

int scale_of(const Expr& x) { return x.type.is_decimal() ? x.type.scale : 0; }

// Types whose values are integers the analysis can bound (a DECIMAL by its unscaled value).
bool integer_valued(const Type& t) {
  return t.is_integer() || t.is_decimal() || t.is_datetime() || t.id == TypeId::Time ||
         t.id == TypeId::Boolean;
}

constexpr ValueBounds kUnknown{};

ValueBounds range(long double lo, long double hi) {
  return {true, std::min(lo, hi), std::max(lo, hi)};
}

ValueBounds join(ValueBounds a, ValueBounds b) {
  if (!a.known || !b.known) return kUnknown;
  return range(std::min(a.lo, b.lo), std::max(a.hi, b.hi));
}

// The range scaled by 10^digits (digits < 0: divided, rounding outward).
ValueBounds scaled(ValueBounds b, int digits) {
  if (!b.known) return kUnknown;
  const long double f = std::pow(10.0L, std::abs(digits));
  if (digits >= 0) return range(b.lo * f, b.hi * f);
  return range(std::floor(b.lo / f) - 1, std::ceil(b.hi / f) + 1);
}

class Analysis {
 public:
  Analysis(const std::vector<ColumnStats>& stats, const std::vector<Value>* parameters)
      : stats_(stats), parameters_(parameters) {}

  ValueBounds of(const Expr& e) const {
    if (!integer_valued(e.type)) return kUnknown;
    switch (e.kind) {
      case ExprKind::ColumnRef: {
        const ColumnStats& s = stats_[e.index];
        if (s.has_range) return range(s.min, s.max);
        return e.type.id == TypeId::Boolean ? range(0, 1) : kUnknown;
      }
      case ExprKind::Constant:
        if (e.value.null) return kUnknown;
        return e.type.is_decimal() ? range(e.value.d, e.value.d) : range(e.value.i, e.value.i);
      case ExprKind::Parameter:
        return parameter(e);
      case ExprKind::Cast:
        return cast(e);
      case ExprKind::Negate: {
        const ValueBounds c = of(*e.children[0]);
        return c.known ? range(-c.hi, -c.lo) : kUnknown;
      }
      case ExprKind::Abs:
        return absolute(of(*e.children[0]));
      case ExprKind::Round:
        return rounded(e);
      case ExprKind::Arith:
        return arith(e);
      case ExprKind::Case:
      case ExprKind::Coalesce:
        return branches(e);
      case ExprKind::Extract:
        return extract(e);
      case ExprKind::DateAdd:
        return date_add(e);
      case ExprKind::Function:
        return scalar_function(e);
      default:
        // A comparison, AND/OR/NOT, IS NULL, LIKE, IN: whatever it reads, 0 or 1 (a GROUP BY
        // over one is a two-value digit, not a hashed key).
        return e.type.id == TypeId::Boolean ? range(0, 1) : kUnknown;
    }
  }

 private:
  ValueBounds parameter(const Expr& e) const {
    if (!parameters_ || e.index < 0 || static_cast<size_t>(e.index) >= parameters_->size()) {
      return kUnknown;
    }
    const Value& v = (*parameters_)[static_cast<size_t>(e.index)];
    if (v.null) return kUnknown;
    return e.type.is_decimal() ? range(v.d, v.d) : range(v.i, v.i);
  }

  // A cast keeps the value, unless it changes the unit: DATEs count days, TIMESTAMPs and
  // TIMEs microseconds.
  ValueBounds cast(const Expr& e) const {
    constexpr long double kMicrosPerDay = 86'400'000'000.0L;
    const Expr& c = *e.children[0];
    if (!integer_valued(c.type)) return kUnknown;
    if (e.type.id == TypeId::Time) return range(0, kMicrosPerDay);  // 24:00:00 included
    const ValueBounds b = of(c);
    const bool from_date = c.type.id == TypeId::Date, to_date = e.type.id == TypeId::Date;
    const bool from_stamp = c.type.is_timestamp(), to_stamp = e.type.is_timestamp();
    if (b.known && from_stamp && to_date) {
      return range(std::floor(b.lo / kMicrosPerDay), std::floor(b.hi / kMicrosPerDay));
    }
    if (b.known && from_date && to_stamp) return range(b.lo * kMicrosPerDay, b.hi * kMicrosPerDay);
    if (from_date != to_date || from_stamp != to_stamp || c.type.id == TypeId::Time) {
      return kUnknown;
    }
    return scaled(b, scale_of(e) - scale_of(c));
  }

  // ROUND keeps order (half away from zero), so its bounds are the argument's rounded outward
  // to e.digits places, at the result's scale (compiler/eval/arith.cpp eval_round).
  ValueBounds rounded(const Expr& e) const {
    const Expr& c = *e.children[0];
    const ValueBounds b = of(c);
    const int from = scale_of(c), digits = e.digits;
    if (!b.known || digits >= from) return scaled(b, scale_of(e) - from);
    const long double step = std::pow(10.0L, from - digits);
    const ValueBounds kept = range(std::floor(b.lo / step), std::ceil(b.hi / step));
    return digits < 0 ? scaled(kept, -digits) : kept;
  }

  static ValueBounds absolute(ValueBounds c) {
    if (!c.known) return kUnknown;
    if (c.lo >= 0) return c;
    if (c.hi <= 0) return range(-c.hi, -c.lo);
    return range(0, std::max(-c.lo, c.hi));
  }

  ValueBounds arith(const Expr& e) const {
    const Expr& a = *e.children[0];
    const Expr& b = *e.children[1];
    switch (e.op) {
      case kAdd:
      case kSub: {
        const ValueBounds x = scaled(of(a), scale_of(e) - scale_of(a));
        const ValueBounds y = scaled(of(b), scale_of(e) - scale_of(b));
        if (!x.known || !y.known) return kUnknown;
        return e.op == kAdd ? range(x.lo + y.lo, x.hi + y.hi) : range(x.lo - y.hi, x.hi - y.lo);
      }
      case kMul: {
        const ValueBounds x = of(a), y = of(b);
        if (!x.known || !y.known || scale_of(e) != scale_of(a) + scale_of(b)) return kUnknown;
        const long double p[] = {x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi};
        return range(*std::min_element(p, p + 4), *std::max_element(p, p + 4));
      }
      case kDiv:
        return e.type.is_decimal() ? decimal_divide(e, a, b) : int_divide(of(a), of(b));
      case kMod:
        return e.type.is_decimal() ? decimal_modulo(e, a, b) : int_modulo(of(a), of(b));
      default:
        return kUnknown;
    }
  }

  // Integer division truncates toward zero: |a / b| <= |a| / min |b|, signs as the operands'.
  // A divisor of unknown sign or size still leaves |a / b| <= |a| (0 raises an error).
  static ValueBounds int_divide(ValueBounds a, ValueBounds b) {
    if (!a.known) return kUnknown;
    if (!b.known || (b.lo <= 0 && b.hi >= 0)) {
      const long double m = std::max(std::fabs(a.lo), std::fabs(a.hi));
      return range(-m, m);
    }
    const long double p[] = {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
    return range(std::trunc(*std::min_element(p, p + 4)), std::trunc(*std::max_element(p, p + 4)));
  }

  // A DECIMAL quotient is the dividend raised to the quotient's scale plus the divisor's, over
  // the divisor's unscaled value (never below 1 in magnitude), rounded: one more in magnitude
  // than the truncated quotient at most.
  ValueBounds decimal_divide(const Expr& e, const Expr& a, const Expr& b) const {
    const ValueBounds dividend = scaled(of(a), scale_of(e) + scale_of(b) - scale_of(a));
    const ValueBounds q = int_divide(dividend, of(b));
    return q.known ? range(q.lo - 1, q.hi + 1) : kUnknown;
  }

  // a % b takes the sign of a and stays below |b| in magnitude, and below |a|; whatever the
  // divisor (0 raises an error), it lies between 0 and a.
  static ValueBounds int_modulo(ValueBounds a, ValueBounds b) {
    const bool divisor_known = b.known && !(b.lo <= 0 && b.hi >= 0);
    if (!divisor_known) {
      return a.known ? range(std::min<long double>(a.lo, 0), std::max<long double>(a.hi, 0))
                     : kUnknown;
    }
    const long double m = std::max(std::fabs(b.lo), std::fabs(b.hi)) - 1;
    if (!a.known) return range(-m, m);
    const long double hi = a.hi > 0 ? std::min(a.hi, m) : 0;
    const long double lo = a.lo < 0 ? std::max(a.lo, -m) : 0;
    if (a.lo >= 0 && a.hi < std::fabs(b.lo) && a.hi < std::fabs(b.hi)) return a;  // a % b == a
    return range(lo, hi);
  }

  // A DECIMAL remainder is its operands' raised to its scale, the integer remainder of those
  // (compiler/eval/arith.cpp decimal_arith; the generated kernels' upscale_checked).
  ValueBounds decimal_modulo(const Expr& e, const Expr& a, const Expr& b) const {
    const int s = scale_of(e);
    if (s < scale_of(a) || s < scale_of(b)) return kUnknown;
    return int_modulo(scaled(of(a), s - scale_of(a)), scaled(of(b), s - scale_of(b)));
  }

  // CASE and COALESCE: the union of the values they choose from.
  ValueBounds branches(const Expr& e) const {
    ValueBounds all{};
    bool first = true;
    for (size_t i = 0; i < e.children.size(); ++i) {
      if (e.kind == ExprKind::Case && i % 2 == 0 && i + 1 < e.children.size()) continue;
      const Expr& c = *e.children[i];
      if (c.kind == ExprKind::Constant && c.value.null) continue;  // NULL adds no value
      const ValueBounds b = scaled(of(c), scale_of(e) - scale_of(c));
      all = first ? b : join(all, b);
      first = false;
    }
    return first ? kUnknown : all;
  }

  // A TIMESTAMP's fields: the time of day's within their cycle, EPOCH from its bounds, the
  // others those of its date.
  static constexpr long double kTimeFieldMax[] = {23, 59, 59, 59'999, 59'999'999};

  // 24:00:00 included: HOUR reaches 24, EPOCH a day's seconds.
  static ValueBounds time_extract(int field) {
    if (field == kEpoch) return range(0, 86'400);
    if (field == kHour) return range(0, 24);
    return range(0, kTimeFieldMax[field - kHour]);
  }

  ValueBounds timestamp_extract(const Expr& e) const {
    if (e.op >= kHour) return range(0, kTimeFieldMax[e.op - kHour]);
    const ValueBounds t = of(*e.children[0]);
    if (!t.known || t.lo < -0x1p62L || t.hi > 0x1p62L) return kUnknown;
    const auto lo = static_cast<int64_t>(t.lo), hi = static_cast<int64_t>(t.hi);
    if (e.op == kEpoch) {
      return range(tally_dates::timestamp_field(lo, kEpoch),
                   tally_dates::timestamp_field(hi, kEpoch));
    }
    const ValueBounds days = range(tally_dates::floor_div(lo, tally_dates::kMicrosPerDayTs),
                                   tally_dates::floor_div(hi, tally_dates::kMicrosPerDayTs));
    return date_extract(e.op, days);
  }

  ValueBounds extract(const Expr& e) const {
    if (e.children[0]->type.is_timestamp()) return timestamp_extract(e);
    if (e.children[0]->type.id == TypeId::Time) return time_extract(e.op);
    return date_extract(e.op, of(*e.children[0]));
  }

  static ValueBounds date_extract(int field, const ValueBounds d) {
    const bool dates = d.known && d.lo >= INT32_MIN && d.hi <= INT32_MAX;
    const CivilDate lo = dates ? civil_from_days(static_cast<int32_t>(d.lo)) : CivilDate{};
    const CivilDate hi = dates ? civil_from_days(static_cast<int32_t>(d.hi)) : CivilDate{};
    switch (field) {
      case kYear:
        return dates ? range(lo.year, hi.year) : kUnknown;
      case kMonth:
        return dates && lo.year == hi.year ? range(lo.month, hi.month) : range(1, 12);
      case kDay:
        return dates && lo.year == hi.year && lo.month == hi.month ? range(lo.day, hi.day)
                                                                   : range(1, 31);
      default:
        return other_field(field, d, dates);
    }
  }

  // Fields that grow with the date (ISOYEAR, DECADE ..., EPOCH) from its bounds; the
  // others within their cycle.
  static ValueBounds other_field(int field, ValueBounds d, bool dates) {
    switch (field) {
      case kQuarter:
        return range(1, 4);
      case kWeek:
        return range(1, 53);
      case kDow:
        return range(0, 6);
      case kIsoDow:
        return range(1, 7);
      case kDoy:
        return range(1, 366);
      default:
        if (!dates) return kUnknown;
        return range(tally_dates::date_field(static_cast<int64_t>(d.lo), field),
                     tally_dates::date_field(static_cast<int64_t>(d.hi), field));
    }
  }

  // FLOOR/CEIL/TRUNC of an integer and date_trunc never pass their argument's bounds
  // (date_trunc only moves a date back, to a start no earlier than the lowest one's).
  ValueBounds scalar_function(const Expr& e) const {
    if (e.op == kSign) return range(-1, 1);
    const ValueBounds c = of(*e.children[0]);
    if (!c.known) return kUnknown;
    if (e.op == kDateTrunc && e.type.is_timestamp()) {
      if (c.lo < -0x1p62L || c.hi > 0x1p62L) return kUnknown;
      return range(tally_dates::timestamp_trunc(static_cast<int64_t>(c.lo), e.digits), c.hi);
    }
    if (e.op == kDateTrunc && c.lo >= INT32_MIN && c.hi <= INT32_MAX) {
      return range(tally_dates::date_trunc_days(static_cast<int64_t>(c.lo), e.digits), c.hi);
    }
    const bool integer_rounding =
        (e.op == kFloor || e.op == kCeil || e.op == kTrunc) && e.type.is_integer() && e.digits >= 0;
    return integer_rounding ? c : kUnknown;
  }

  // DATE + months + days: a month moves a date by 28 to 31 days (the day clamps to the
  // month's end).
  ValueBounds date_add(const Expr& e) const {
    const ValueBounds d = of(*e.children[0]);
    if (!d.known) return kUnknown;
    // A TIMESTAMP moves in micros: a day's worth per day, plus the micros.
    const bool stamps = e.type.is_timestamp();
    const long double unit = stamps ? static_cast<long double>(tally_dates::kMicrosPerDayTs) : 1;
    const long double m = static_cast<long double>(e.months) * unit,
                      days = static_cast<long double>(e.days) * unit +
                             (stamps ? static_cast<long double>(e.micros) : 0);
    const long double shift_lo = std::min(m * 28, m * 31) + days;
    const long double shift_hi = std::max(m * 28, m * 31) + days;
    return range(d.lo + shift_lo, d.hi + shift_hi);
  }

  const std::vector<ColumnStats>& stats_;
  const std::vector<Value>* parameters_;
};

}  // namespace

ValueBounds value_bounds(const Expr& e, const std::vector<ColumnStats>& stats,
                         const std::vector<Value>* parameters) {
  return Analysis(stats, parameters).of(e);
}

long double magnitude_log2(const Expr& e, const std::vector<ColumnStats>& stats) {
  if (e.type.id == TypeId::Boolean) return 0;  // 0 or 1 (COUNT_IF sums them)
  const ValueBounds b = value_bounds(e, stats);
  if (b.known) return std::log2(std::max({std::fabs(b.lo), std::fabs(b.hi), 1.0L}));
  const long double ten = std::log2(10.0L);
  const long double declared =
      e.type.is_decimal() ? e.type.precision * ten : (e.type.is_hugeint() ? 127 : 63);
  switch (e.kind) {
    case ExprKind::ColumnRef: {
      // A HUGEINT's or wide DECIMAL's exact range bounds it (a DECIMAL(38,2) of amounts is
      // 126 bits by its type).
      const ColumnStats& s = stats[static_cast<size_t>(e.index)];
      if (!(e.type.is_hugeint() || e.type.is_wide_decimal()) || !s.has_values) return declared;
      return std::log2(std::max({std::fabs(static_cast<long double>(s.wide_min)),
                                 std::fabs(static_cast<long double>(s.wide_max)), 1.0L}));
    }
    case ExprKind::Cast: {
      const Expr& c = *e.children[0];
      if (!e.type.is_decimal() && !e.type.is_integer() && !e.type.is_hugeint()) return declared;
      if (c.type.is_float()) return declared;
      return magnitude_log2(c, stats) + std::max(0, scale_of(e) - scale_of(c)) * ten;
    }
    case ExprKind::Constant:  // a non-NULL one's value bounds it above
      return e.value.null ? 0 : declared;
    case ExprKind::Round: {
      // |round(x)| <= |x| + half a step, a step being 10^-digits: in the result's unscaled
      // units, at most twice the larger of the shifted |x| and the step.
      const Expr& c = *e.children[0];
      if (!e.type.is_decimal() || !c.type.is_decimal()) return declared;
      const long double shifted = magnitude_log2(c, stats) + (scale_of(e) - scale_of(c)) * ten;
      const long double step = std::max(0, scale_of(e) - e.digits) * ten;
      return std::max({0.0L, shifted, step}) + 1;
    }
    case ExprKind::Negate:
    case ExprKind::Abs:
      return magnitude_log2(*e.children[0], stats);
    case ExprKind::Arith: {
      if (e.type.is_float()) return declared;
      const Expr& a = *e.children[0];
      const Expr& b = *e.children[1];
      const long double ma =
          magnitude_log2(a, stats) + std::max(0, scale_of(e) - scale_of(a)) * ten;
      const long double mb =
          magnitude_log2(b, stats) + std::max(0, scale_of(e) - scale_of(b)) * ten;
      switch (e.op) {
        case kAdd:
        case kSub:
          return std::max(ma, mb) + 1;
        case kMul:
          return magnitude_log2(a, stats) + magnitude_log2(b, stats);
        case kDiv:
          return magnitude_log2(a, stats) + (scale_of(e) - scale_of(a) + scale_of(b)) * ten;
        default:
          return std::max(ma, mb);
      }
    }
    case ExprKind::Case:
    case ExprKind::Coalesce: {
      long double m = 0;
      for (size_t i = 0; i < e.children.size(); ++i) {
        if (e.kind == ExprKind::Case && i % 2 == 0 && i + 1 < e.children.size()) continue;
        m = std::max(m, magnitude_log2(*e.children[i], stats));
      }
      return m;
    }
    default:
      return declared;
  }
}

}  // namespace tally
