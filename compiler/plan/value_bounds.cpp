#include "compiler/plan/value_bounds.h"

#include <algorithm>
#include <cmath>

namespace tally {

namespace {

int scale_of(const Expr& x) { return x.type.is_decimal() ? x.type.scale : 0; }

}  // namespace

// log2 of the largest unscaled magnitude an expression can reach, by interval reasoning
// over the column statistics (declared precision where nothing better is known).
long double magnitude_log2(const Expr& e, const std::vector<ColumnStats>& stats) {
  const long double ten = std::log2(10.0L);
  auto fallback = [&]() -> long double {
    if (e.type.is_decimal()) return e.type.precision * ten;
    return 63;
  };
  switch (e.kind) {
    case ExprKind::ColumnRef:
      if (stats[e.index].has_range) {
        long double m = std::max(std::fabs(static_cast<long double>(stats[e.index].min)),
                                 std::fabs(static_cast<long double>(stats[e.index].max)));
        return std::log2(std::max(m, 1.0L));
      }
      return fallback();
    case ExprKind::Constant: {
      long double m = e.type.is_decimal() ? std::fabs(static_cast<long double>(e.value.d))
                                          : std::fabs(static_cast<long double>(e.value.i));
      return e.type.is_float() ? fallback() : std::log2(std::max(m, 1.0L));
    }
    case ExprKind::Cast: {
      const Expr& c = *e.children[0];
      if (!e.type.is_decimal() && !e.type.is_integer()) return fallback();
      if (c.type.is_float()) return fallback();
      return magnitude_log2(c, stats) + std::max(0, scale_of(e) - scale_of(c)) * ten;
    }
    case ExprKind::Negate:
    case ExprKind::Abs:
      return magnitude_log2(*e.children[0], stats);
    case ExprKind::Arith: {
      if (e.type.is_float()) return fallback();
      const Expr& a = *e.children[0];
      const Expr& b = *e.children[1];
      long double ma = magnitude_log2(a, stats) + std::max(0, scale_of(e) - scale_of(a)) * ten;
      long double mb = magnitude_log2(b, stats) + std::max(0, scale_of(e) - scale_of(b)) * ten;
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
      return fallback();
  }
}

namespace {

ValueBounds scaled(ValueBounds b, int digits) {
  if (!b.known || digits < 0) return ValueBounds{};
  const long double f = std::pow(10.0L, digits);
  return {true, b.lo * f, b.hi * f};
}

ValueBounds arith_bounds(const Expr& e, const std::vector<ColumnStats>& stats) {
  const Expr& a = *e.children[0];
  const Expr& b = *e.children[1];
  if (e.op == kMul) {
    ValueBounds x = value_bounds(a, stats), y = value_bounds(b, stats);
    if (!x.known || !y.known || scale_of(e) != scale_of(a) + scale_of(b)) return {};
    long double p[] = {x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi};
    return {true, *std::min_element(p, p + 4), *std::max_element(p, p + 4)};
  }
  if (e.op != kAdd && e.op != kSub) return {};
  ValueBounds x = scaled(value_bounds(a, stats), scale_of(e) - scale_of(a));
  ValueBounds y = scaled(value_bounds(b, stats), scale_of(e) - scale_of(b));
  if (!x.known || !y.known) return {};
  if (e.op == kAdd) return {true, x.lo + y.lo, x.hi + y.hi};
  return {true, x.lo - y.hi, x.hi - y.lo};
}

}  // namespace

ValueBounds value_bounds(const Expr& e, const std::vector<ColumnStats>& stats) {
  if (e.type.is_float() || !(e.type.is_decimal() || e.type.is_integer())) return {};
  switch (e.kind) {
    case ExprKind::ColumnRef: {
      const ColumnStats& s = stats[e.index];
      if (!s.has_range) return {};
      return {true, static_cast<long double>(s.min), static_cast<long double>(s.max)};
    }
    case ExprKind::Constant: {
      long double v = e.type.is_decimal() ? static_cast<long double>(e.value.d)
                                          : static_cast<long double>(e.value.i);
      return {true, v, v};
    }
    case ExprKind::Cast: {
      const Expr& c = *e.children[0];
      if (c.type.is_float()) return {};
      return scaled(value_bounds(c, stats), scale_of(e) - scale_of(c));
    }
    case ExprKind::Negate: {
      ValueBounds c = value_bounds(*e.children[0], stats);
      return c.known ? ValueBounds{true, -c.hi, -c.lo} : ValueBounds{};
    }
    case ExprKind::Arith:
      return arith_bounds(e, stats);
    default:
      return {};
  }
}

}  // namespace tally
