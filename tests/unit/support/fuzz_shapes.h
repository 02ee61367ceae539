// What the query generator (tests/unit/support/query_generator.h) builds: a QueryShape, and
// for every expression a Gen with the type the binder will give it and an interval that holds
// its values (fuzz_detail), which keep SUMs and products inside their types.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/unit/support/fuzz_tables.h"

namespace tally::test {

// ---- the queries ---------------------------------------------------------------------

// How closely an output column of the GPU must match the CPU's: exact when both are 0.
struct ColumnTolerance {
  double relative = 0;
  double absolute = 0;
};

struct QueryShape {
  std::string table;
  std::string sql;                                   // with ? for the parameters
  std::vector<std::vector<std::string>> parameters;  // [parameter][instance], "NULL" for NULL
  std::vector<ColumnTolerance> tolerances;           // one per output column
  bool risky = false;                                // meant to raise an error sometimes
  size_t instances = 1;
  // For partition checks: the WHERE condition alone ("" if none) with its own parameters,
  // and the group keys (they hold no parameters).
  std::string filter;
  std::vector<std::vector<std::string>> filter_parameters;
  std::vector<std::string> keys;

  std::vector<std::string> parameters_of(size_t instance) const {
    return values_of(parameters, instance);
  }
  std::vector<std::string> filter_parameters_of(size_t instance) const {
    return values_of(filter_parameters, instance);
  }
  // The text with instance `instance`'s parameter values written in as string literals (each
  // `?` sits inside CAST(? AS type), so the constant gets the parameter's type).
  std::string inlined(size_t instance) const {
    const std::vector<std::string> values = parameters_of(instance);
    std::string out;
    size_t next = 0;
    for (char c : sql) {
      if (c != '?') {
        out += c;
        continue;
      }
      const std::string& v = values.at(next++);
      out += v == "NULL" ? "NULL" : "'" + v + "'";
    }
    return out;
  }

 private:
  static std::vector<std::string> values_of(const std::vector<std::vector<std::string>>& all,
                                            size_t instance) {
    std::vector<std::string> values;
    for (const auto& p : all) values.push_back(p[instance % p.size()]);
    return values;
  }
};

namespace fuzz_detail {

constexpr double kIntCap = 5e13;            // BIGINT values: a SUM over 120k rows still fits
constexpr double kUnscaledCap = 1e24;       // DECIMAL unscaled values
constexpr double kVarianceUnscaled = 1e16;  // exact variance: squares summed in 128 bits
constexpr double kDoubleCap = 1e15;
constexpr int kMaxPrecision = 38;

// An expression the generator built, with the type the binder gives it and an interval
// that holds all its non-NULL values.
struct Gen {
  std::string sql;
  FuzzKind kind = FuzzKind::Int;
  int width = 32;
  int precision = 0;
  int scale = 0;
  double lo = 0;
  double hi = 0;
  bool nullable = false;
  bool column = false;  // a bare column reference
  bool real = false;
  bool risky = false;                  // may raise an error at run time, on purpose
  const FuzzColumn* source = nullptr;  // the column, when `column`

  double magnitude() const { return std::max(std::fabs(lo), std::fabs(hi)); }
  bool numeric() const {
    return kind == FuzzKind::Int || kind == FuzzKind::Decimal || kind == FuzzKind::Double;
  }
  bool excludes_zero() const { return lo > 0 || hi < 0; }
};

inline int integer_digits_of_width(int width) { return width == 16 ? 5 : width == 32 ? 10 : 19; }

// The DECIMAL an integer widens to next to a DECIMAL (promote_numeric).
inline Gen as_decimal(Gen g) {
  if (g.kind != FuzzKind::Int) return g;
  g.kind = FuzzKind::Decimal;
  g.precision = integer_digits_of_width(g.width);
  g.scale = 0;
  return g;
}

inline double int_limit(int width) {
  return width == 16 ? 32767 : width == 32 ? 2147483647.0 : kIntCap;
}

// Whether every value of `g` fits its type (and the caps that keep SUMs exact).
inline bool fits(const Gen& g) {
  double m = g.magnitude();
  if (!std::isfinite(m)) return false;
  switch (g.kind) {
    case FuzzKind::Int:
      return m <= int_limit(g.width);
    case FuzzKind::Decimal: {
      double unscaled = m * std::pow(10.0, g.scale);
      return g.precision <= kMaxPrecision && g.scale <= g.precision &&
             unscaled < std::pow(10.0, g.precision) * 0.99 && unscaled <= kUnscaledCap;
    }
    case FuzzKind::Double:
      return m <= kDoubleCap;
    default:
      return true;
  }
}

// The common type of CASE / COALESCE / IN branches (bind_coerce.cpp common_type).
inline Gen common_of(const Gen& a, const Gen& b) {
  Gen r = a;
  r.column = false;
  r.source = nullptr;
  r.real = false;
  r.lo = std::min(a.lo, b.lo);
  r.hi = std::max(a.hi, b.hi);
  r.nullable = a.nullable || b.nullable;
  if (a.kind == FuzzKind::Double || b.kind == FuzzKind::Double) {
    r.kind = FuzzKind::Double;
  } else if (a.kind == FuzzKind::Decimal || b.kind == FuzzKind::Decimal) {
    Gen da = as_decimal(a), db = as_decimal(b);
    r.kind = FuzzKind::Decimal;
    r.scale = std::max(da.scale, db.scale);
    int digits = std::max(da.precision - da.scale, db.precision - db.scale);
    r.precision = std::min(kMaxPrecision, digits + r.scale);
  } else if (a.kind == FuzzKind::Int) {
    r.width = std::max(a.width, b.width);
  }
  return r;
}

// Interval of a * b over the corners.
inline std::pair<double, double> product_range(const Gen& a, const Gen& b) {
  double c[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  return {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
}

// The binder's type and an interval for a <op> b; op is one of + - * / %.
inline Gen arith(const Gen& a, char op, const Gen& b) {
  Gen r;
  r.sql = fmt::format("({} {} {})", a.sql, op, b.sql);
  r.nullable = a.nullable || b.nullable;
  r.risky = a.risky || b.risky;
  if (a.kind == FuzzKind::Double || b.kind == FuzzKind::Double) {
    r.kind = FuzzKind::Double;
  } else if (a.kind == FuzzKind::Decimal || b.kind == FuzzKind::Decimal) {
    Gen da = as_decimal(a), db = as_decimal(b);
    int p1 = da.precision, s1 = da.scale, p2 = db.precision, s2 = db.scale;
    r.kind = FuzzKind::Decimal;
    switch (op) {
      case '+':
      case '-':
        r.scale = std::max(s1, s2);
        r.precision = std::min(kMaxPrecision, std::max(p1 - s1, p2 - s2) + r.scale + 1);
        break;
      case '*':
        r.scale = s1 + s2;
        r.precision = std::min(kMaxPrecision, p1 + p2);
        break;
      case '/':
        r.scale = std::max({6, s1, s2});
        r.precision = kMaxPrecision;
        break;
      default:
        r.scale = std::max(s1, s2);
        r.precision = std::min(kMaxPrecision, std::max(p1, p2));
    }
  } else {
    r.kind = FuzzKind::Int;
    r.width = std::max(a.width, b.width);
  }
  switch (op) {
    case '+':
      r.lo = a.lo + b.lo;
      r.hi = a.hi + b.hi;
      break;
    case '-':
      r.lo = a.lo - b.hi;
      r.hi = a.hi - b.lo;
      break;
    case '*':
      std::tie(r.lo, r.hi) = product_range(a, b);
      break;
    case '/': {
      if (!b.excludes_zero()) {
        // A divisor that can be zero: bounded by the smallest non-zero divisor.
        double smallest = r.kind == FuzzKind::Int       ? 1
                          : r.kind == FuzzKind::Decimal ? std::pow(10.0, -as_decimal(b).scale)
                                                        : 1e-3;
        double m = a.magnitude() / smallest;
        r.lo = -m;
        r.hi = m;
        r.risky = true;
        break;
      }
      Gen inverse = b;
      inverse.lo = 1 / b.hi;
      inverse.hi = 1 / b.lo;
      std::tie(r.lo, r.hi) = product_range(a, inverse);
      if (r.kind == FuzzKind::Int) {
        r.lo = std::trunc(r.lo);
        r.hi = std::trunc(r.hi);
      }
      // Rounded to the result's scale, a tiny quotient can become 0.
      if (r.kind == FuzzKind::Decimal && r.lo > 0 && r.lo < std::pow(10.0, -r.scale)) r.lo = 0;
      if (r.kind == FuzzKind::Decimal && r.hi < 0 && -r.hi < std::pow(10.0, -r.scale)) r.hi = 0;
      break;
    }
    default: {  // %: the sign of the dividend, smaller than the divisor
      r.risky = r.risky || !b.excludes_zero();
      double m = std::max(std::fabs(b.lo), std::fabs(b.hi));
      r.lo = a.lo >= 0 ? 0 : std::max(a.lo, -m);
      r.hi = a.hi <= 0 ? 0 : std::min(a.hi, m);
    }
  }
  return r;
}

// Raw text of a date for DATE '...' and parameters.
inline std::string date_text(int32_t days) {
  YearMonth ym = year_month_of(days);
  int day = days - days_since_epoch(ym.year, ym.month, 1) + 1;
  return fmt::format("{:04d}-{:02d}-{:02d}", ym.year, ym.month, day);
}

// The SQL type name a parameter of this kind is cast to.
inline std::string parameter_type(FuzzKind kind, int scale, double magnitude) {
  switch (kind) {
    case FuzzKind::Int:
      return magnitude > 2e9 ? "BIGINT" : "INTEGER";
    case FuzzKind::Decimal: {
      int digits = static_cast<int>(std::ceil(std::log10(std::max(10.0, magnitude + 1))));
      return fmt::format("DECIMAL({}, {})", std::min(kMaxPrecision, digits + scale + 1), scale);
    }
    case FuzzKind::Double:
      return "DOUBLE";
    case FuzzKind::Date:
      return "DATE";
    case FuzzKind::String:
      return "VARCHAR";
    default:
      return "BOOLEAN";
  }
}

inline const char* kCompareOps[] = {"=", "<>", "<", "<=", ">", ">="};

}  // namespace fuzz_detail

}  // namespace tally::test
