// A deterministic random generator of GROUP BY / aggregate SQL, and of some queries without
// either, for differential tests (GPU against the CPU engine, and the NVRTC compile check in
// CI). Everything it draws comes from one seeded std::mt19937_64 and its own arithmetic on it (no
// std:: distributions, whose output differs between standard libraries), so a seed names the same
// queries everywhere.
//
// The generator knows the fuzz tables' schemas and value ranges (FuzzTable, written out here
// from the generators' documented rules, not read from the tables) and tracks, for every
// expression it builds, the type the binder will give it and an interval that holds its
// values. That is how it keeps every query valid for the binder, keeps SUMs and products
// inside their types, and raises execution errors only where it means to (a division by a
// column that can be zero, a product or CAST that overflows, sometimes behind a guard that
// must keep it from raising): about one shape in ten carries one, and 3-4 % of the queries
// raise.
//
// A QueryShape is one SQL text with `?` parameters and several sets of parameter values: the
// instances share one compiled GPU kernel (tally caches NVRTC output by source), so a test
// can run many queries for the price of few compilations.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally::test {

// ---- the tables ------------------------------------------------------------------------

enum class FuzzKind { Int, Decimal, Double, Date, String, Bool };

struct FuzzColumn {
  std::string name;
  FuzzKind kind = FuzzKind::Int;
  int width = 32;                  // Int: 16, 32 or 64 bits
  int precision = 0;               // Decimal
  int scale = 0;                   // Decimal
  double lo = 0;                   // every non-NULL value lies in [lo, hi]
  double hi = 0;                   //   (Date: days since 1970-01-01)
  bool nullable = false;           // may hold NULLs
  double distinct = 0;             // about how many distinct values
  std::vector<std::string> words;  // String: values (and near misses) for constants
  double step = 0;                 // values are lo + k * step (0: any value in the range)
  bool real = false;               // REAL rather than DOUBLE
};

struct FuzzTable {
  std::string name;
  double rows = 0;
  std::vector<FuzzColumn> columns;
};

namespace fuzz_detail {

inline FuzzColumn int_column(std::string name, int width, double lo, double hi, double distinct,
                             bool nullable = false) {
  FuzzColumn c;
  c.name = std::move(name);
  c.width = width;
  c.lo = lo;
  c.hi = hi;
  c.distinct = distinct;
  c.nullable = nullable;
  c.step = 1;
  return c;
}

inline FuzzColumn with_step(FuzzColumn c, double step) {
  c.step = step;
  return c;
}

inline FuzzColumn decimal_column(std::string name, int precision, int scale, double lo, double hi,
                                 double distinct, bool nullable = false) {
  FuzzColumn c = int_column(std::move(name), 0, lo, hi, distinct, nullable);
  c.kind = FuzzKind::Decimal;
  c.precision = precision;
  c.scale = scale;
  c.step = 0;
  return c;
}

inline FuzzColumn double_column(std::string name, double lo, double hi, double distinct,
                                bool nullable = false, bool real = false) {
  FuzzColumn c = int_column(std::move(name), 0, lo, hi, distinct, nullable);
  c.kind = FuzzKind::Double;
  c.real = real;
  c.step = 0;
  return c;
}

inline FuzzColumn date_column(std::string name, int32_t first, int32_t last,
                              bool nullable = false) {
  FuzzColumn c = int_column(std::move(name), 0, first, last, last - first + 1, nullable);
  c.kind = FuzzKind::Date;
  return c;
}

inline FuzzColumn string_column(std::string name, std::vector<std::string> words, double distinct,
                                bool nullable = false) {
  FuzzColumn c = int_column(std::move(name), 0, 0, 0, distinct, nullable);
  c.kind = FuzzKind::String;
  c.words = std::move(words);
  c.step = 0;
  return c;
}

inline FuzzColumn bool_column(std::string name, bool nullable) {
  FuzzColumn c = int_column(std::move(name), 0, 0, 1, 2, nullable);
  c.kind = FuzzKind::Bool;
  return c;
}

// TPC-H lineitem at scale factor 0.02 (spec 4.2.3): 30,000 orders of 1..7 lines.
inline FuzzTable lineitem_spec() {
  const int32_t first = days_since_epoch(1992, 1, 1), last = days_since_epoch(1998, 12, 31);
  return {
      "lineitem",
      120000,
      {int_column("l_orderkey", 64, 1, 120000, 30000), int_column("l_partkey", 32, 1, 4000, 4000),
       int_column("l_suppkey", 32, 1, 200, 200), int_column("l_linenumber", 32, 1, 7, 7),
       with_step(decimal_column("l_quantity", 15, 2, 1, 50, 50), 1),
       decimal_column("l_extendedprice", 15, 2, 900, 105000, 100000),
       with_step(decimal_column("l_discount", 15, 2, 0, 0.10, 11), 0.01),
       with_step(decimal_column("l_tax", 15, 2, 0, 0.08, 9), 0.01),
       string_column("l_returnflag", {"A", "F", "N", "O", "R"}, 3),
       string_column("l_linestatus", {"F", "O", "N"}, 2), date_column("l_shipdate", first, last),
       date_column("l_commitdate", first, last), date_column("l_receiptdate", first, last),
       string_column("l_shipinstruct",
                     {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN", "SHIP"}, 4),
       string_column("l_shipmode", {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}, 7),
       string_column("l_comment",
                     {"the", "carefully", "quickly", "furiously", "deposits", "requests",
                      "packages", "accounts", "final", "regular", "ironic", "slyly"},
                     100000)}};
}

// generate_atable: col1 a key over [0, 1000) (uniform or Zipf), col2 in [0, 1000000),
// col3 in [0, 1000), col4 in [0.00, 10000.00].
inline FuzzTable atable_spec(std::string name) {
  return {
      std::move(name),
      100000,
      {int_column("col1", 64, 0, 999, 1000), int_column("col2", 32, 0, 999999, 100000),
       double_column("col3", 0, 1000, 100000), decimal_column("col4", 12, 2, 0, 10000, 100000)}};
}

// generate_nulls_table: ten values per column (two for BOOLEAN), each NULL at the table's rate.
inline FuzzTable nulls_spec(std::string name, bool nullable) {
  const int32_t first = days_since_epoch(1995, 1, 1);
  return {std::move(name),
          50000,
          {int_column("c_smallint", 16, -5, 4, 10, nullable),
           with_step(int_column("c_integer", 32, 0, 9000, 10, nullable), 1000),
           with_step(int_column("c_bigint", 64, 1e10, 1e11, 10, nullable), 1e10),
           with_step(double_column("c_real", 0.5, 9.5, 10, nullable, true), 1),
           with_step(double_column("c_double", 0, 2.25, 10, nullable), 0.25),
           with_step(decimal_column("c_decimal", 10, 2, -5, 6.25, 10, nullable), 1.25),
           with_step(decimal_column("c_wide", 30, 4, 1e18, 1e19, 10, nullable), 1e18),
           date_column("c_date", first, first + 9, nullable),
           string_column("c_varchar",
                         {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
                          "iota", "kappa", "omega"},
                         10, nullable),
           bool_column("c_boolean", nullable)}};
}

inline const double kNullFractions[] = {0, 0.1, 0.5, 0.95};

inline std::string nulls_name(double fraction) {
  return fmt::format("nulls_{}", static_cast<int>(std::lround(fraction * 100)));
}

// A copy of `table` under another name (the generators name every nulls table "nulls").
inline TablePtr renamed(const TablePtr& table, const std::string& name) {
  auto copy = std::make_shared<Table>(*table);
  copy->schema.name = name;
  return copy;
}

}  // namespace fuzz_detail

// The tables the generator draws from, as their specs.
inline const std::vector<FuzzTable>& fuzz_tables() {
  static const std::vector<FuzzTable> tables = [] {
    std::vector<FuzzTable> t = {fuzz_detail::lineitem_spec(), fuzz_detail::atable_spec("atable"),
                                fuzz_detail::atable_spec("atable_zipf")};
    for (double f : fuzz_detail::kNullFractions) {
      t.push_back(fuzz_detail::nulls_spec(fuzz_detail::nulls_name(f), f > 0));
    }
    return t;
  }();
  return tables;
}

// Puts the fuzz tables into `db`: lineitem (SF 0.02), atable (uniform keys), atable_zipf
// (Zipf 1.2) and nulls_0 / nulls_10 / nulls_50 / nulls_95 (NULL densities 0 to 0.95).
inline void register_fuzz_tables(Database& db, uint64_t seed = 7) {
  db.put_table(generate_lineitem(0.02, seed));
  db.put_table(generate_atable(100000, 1000, 0, seed));
  db.put_table(fuzz_detail::renamed(generate_atable(100000, 1000, 1.2, seed), "atable_zipf"));
  for (double f : fuzz_detail::kNullFractions) {
    db.put_table(
        fuzz_detail::renamed(generate_nulls_table(50000, f, seed), fuzz_detail::nulls_name(f)));
  }
}

// A number from the environment (TALLY_FUZZ_SEED, ...), or `fallback` when it is unset.
inline uint64_t fuzz_env(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  return text && *text ? std::strtoull(text, nullptr, 0) : fallback;
}

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

class QueryGenerator {
 public:
  using Gen = fuzz_detail::Gen;

  // `instances`: parameter value sets per shape.
  explicit QueryGenerator(uint64_t seed, size_t instances = 4)
      : rng_(seed), instances_(std::max<size_t>(1, instances)) {}

  QueryShape next() {
    const auto& tables = fuzz_tables();
    // lineitem 30 %, each atable 10 %, each nulls table 12.5 %.
    uint64_t r = below(1000);
    table_ = r < 300   ? &tables[0]
             : r < 400 ? &tables[1]
             : r < 500 ? &tables[2]
                       : &tables[3 + (r - 500) / 125];
    markers_.clear();
    risk_budget_ = chance(0.05) ? 1 : 0;
    error_shape_ = chance(0.06);
    QueryShape shape;
    shape.table = table_->name;
    shape.instances = instances_;
    uint64_t kind = below(100);  // DISTINCT 3 %, no aggregation 6 %, GROUP BY / aggregates
    shape.sql = kind < 3   ? distinct_query(shape)
                : kind < 9 ? projection_query(shape)
                           : aggregate_query(shape);
    shape.risky = risky_used_;
    risky_used_ = false;
    resolve_parameters(shape);
    return shape;
  }

 private:
  // ---- randomness ----
  uint64_t below(uint64_t n) { return n == 0 ? 0 : rng_() % n; }
  bool chance(double p) { return static_cast<double>(rng_() >> 11) * 0x1.0p-53 < p; }
  double uniform(double lo, double hi) {
    return lo + static_cast<double>(rng_() >> 11) * 0x1.0p-53 * (hi - lo);
  }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

  // Spends the shape's one deliberate error, if it has one left.
  bool take_risk() {
    if (risk_budget_ == 0 || !chance(0.7)) return false;
    --risk_budget_;
    risky_used_ = true;
    return true;
  }

  // ---- columns ----
  std::vector<const FuzzColumn*> columns_where(const std::function<bool(const FuzzColumn&)>& f) {
    std::vector<const FuzzColumn*> out;
    for (const auto& c : table_->columns)
      if (f(c)) out.push_back(&c);
    return out;
  }
  std::vector<const FuzzColumn*> columns_of(FuzzKind kind) {
    return columns_where([&](const FuzzColumn& c) { return c.kind == kind; });
  }
  static Gen column(const FuzzColumn& c) {
    Gen g;
    g.sql = c.name;
    g.kind = c.kind;
    g.width = c.width;
    g.precision = c.precision;
    g.scale = c.scale;
    g.lo = c.lo;
    g.hi = c.hi;
    g.nullable = c.nullable;
    g.column = true;
    g.real = c.real;
    g.source = &c;
    return g;
  }
  Gen numeric_column() {
    auto cols = columns_where([](const FuzzColumn& c) {
      return c.kind == FuzzKind::Int || c.kind == FuzzKind::Decimal || c.kind == FuzzKind::Double;
    });
    return column(*pick(cols));
  }

  // ---- constants and parameters ----

  // A value for comparisons with `like`: one of a column's own values or inside the range
  // mostly, at an edge or outside sometimes. Raw text, as a parameter takes it.
  std::string value_text(const Gen& like) {
    double lo = like.lo, hi = like.hi, v;
    double step = like.source ? like.source->step : 0;
    uint64_t r = below(10);
    double span = std::max(hi - lo, 1.0);
    if (r < 8 && step > 0 && like.column) {
      v = lo + step * static_cast<double>(below(static_cast<uint64_t>((hi - lo) / step + 1.5)));
    } else if (r < 8) {
      v = uniform(lo, hi);
    } else if (r < 9) {
      v = chance(0.5) ? lo : hi;
    } else {
      v = chance(0.5) ? lo - uniform(0, span / 4) : hi + uniform(0, span / 4);
    }
    switch (like.kind) {
      case FuzzKind::Int:
        return fmt::format("{}", static_cast<int64_t>(std::llround(v)));
      case FuzzKind::Decimal:
        return fmt::format("{:.{}f}", v, std::min(like.scale, 6));
      case FuzzKind::Double:
        return fmt::format("{:.2f}", v);
      case FuzzKind::Date:
        return fuzz_detail::date_text(static_cast<int32_t>(std::llround(v)));
      case FuzzKind::String:
        return like.source && !like.source->words.empty() ? pick(like.source->words) : "x";
      default:
        return chance(0.5) ? "true" : "false";
    }
  }

  // Orders two raw values of one kind.
  static bool value_less(FuzzKind kind, const std::string& a, const std::string& b) {
    if (a == "NULL" || b == "NULL") return false;
    if (kind == FuzzKind::String || kind == FuzzKind::Date) return a < b;  // ISO dates sort
    return std::stod(a) < std::stod(b);
  }

  static std::string literal(FuzzKind kind, const std::string& text, bool float_literal) {
    switch (kind) {
      case FuzzKind::Double:
        return float_literal ? text + "e0" : text;
      case FuzzKind::Date:
        return "DATE '" + text + "'";
      case FuzzKind::String: {
        std::string quoted = "'";
        for (char c : text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
        return quoted + "'";
      }
      case FuzzKind::Bool:
        return text == "true" ? "TRUE" : "FALSE";
      default:
        return text;
    }
  }

  // A constant to compare with `like`: a literal, or a parameter whose values differ
  // between the shape's instances (NULL now and then).
  std::string constant(const Gen& like, bool allow_parameter = true) {
    return constants(like, 1, allow_parameter)[0];
  }

  // `n` constants for `like`, their values in order within each instance mostly (BETWEEN
  // bounds): all literals, or all parameters.
  std::vector<std::string> constants(const Gen& like, size_t n, bool allow_parameter = true) {
    bool sorted = n > 1 && chance(0.9);
    std::vector<std::string> out;
    if (allow_parameter && params_allowed_ && chance(0.45)) {
      std::vector<std::vector<std::string>> values(n);
      for (size_t i = 0; i < instances_; ++i) {
        std::vector<std::string> instance;
        for (size_t k = 0; k < n; ++k) instance.push_back(value_text(like));
        if (sorted) {
          std::sort(instance.begin(), instance.end(),
                    [&](const auto& a, const auto& b) { return value_less(like.kind, a, b); });
        }
        for (size_t k = 0; k < n; ++k) values[k].push_back(chance(0.03) ? "NULL" : instance[k]);
      }
      int scale = like.kind == FuzzKind::Decimal ? like.scale : 0;
      std::string type = fuzz_detail::parameter_type(like.kind, scale, like.magnitude() * 1.3);
      for (auto& v : values) {
        markers_.push_back(std::move(v));
        out.push_back(fmt::format("CAST(\x01{}\x01 AS {})", markers_.size() - 1, type));
      }
      return out;
    }
    std::vector<std::string> texts;
    for (size_t k = 0; k < n; ++k) texts.push_back(value_text(like));
    if (sorted) {
      std::sort(texts.begin(), texts.end(),
                [&](const auto& a, const auto& b) { return value_less(like.kind, a, b); });
    }
    for (const auto& t : texts) out.push_back(literal(like.kind, t, chance(0.3)));
    return out;
  }

  // A comparison operator for `a`: equality mostly where `a` takes few exact values.
  const char* compare_op(const Gen& a) {
    bool discrete = a.column && a.source && (a.source->step > 0 || a.kind == FuzzKind::String);
    if (discrete || chance(0.2)) return fuzz_detail::kCompareOps[below(6)];
    return fuzz_detail::kCompareOps[2 + below(4)];
  }

  // A numeric constant as a Gen (typed the way the binder types the literal).
  Gen numeric_constant(double lo, double hi, FuzzKind kind, int scale) {
    Gen g;
    g.kind = kind;
    double v = uniform(lo, hi);
    if (kind == FuzzKind::Int || (kind == FuzzKind::Decimal && scale == 0)) {
      int64_t i = std::llround(v);
      g.kind = FuzzKind::Int;
      g.width = std::llabs(i) > 2147483647 ? 64 : 32;
      g.sql = fmt::format("{}", i);
      g.lo = g.hi = static_cast<double>(i);
    } else if (kind == FuzzKind::Decimal) {
      g.sql = fmt::format("{:.{}f}", std::fabs(v), scale);
      int before = std::max(1, static_cast<int>(g.sql.find('.')));
      g.precision = before + scale;
      g.scale = scale;
      g.lo = g.hi = std::stod(g.sql);
      if (v < 0) {
        g.sql = "(-" + g.sql + ")";
        g.lo = g.hi = -g.lo;
      }
    } else {
      g.sql = fmt::format("{:.3f}e0", v);
      g.lo = g.hi = std::stod(fmt::format("{:.3f}", v));
    }
    return g;
  }

  // ---- numeric expressions ----

  Gen numeric(int depth) {
    for (int attempt = 0; attempt < 6; ++attempt) {
      std::optional<Gen> g = try_numeric(depth);
      if (g && (fuzz_detail::fits(*g) || g->risky)) return *g;
    }
    return numeric_column();
  }

  std::optional<Gen> try_numeric(int depth) {
    uint64_t r = below(100);
    if (depth <= 0 || r < 30) return numeric_column();
    if (r < 58) return arithmetic(depth);
    if (r < 65) return case_numeric(depth);
    if (r < 70) return coalesce_numeric();
    if (r < 76) return cast_numeric(depth);
    if (r < 80) return unary_numeric(depth, chance(0.7) ? "ABS" : "-");
    if (r < 84) return round_numeric(depth);
    if (r < 89) return date_number();
    if (r < 94) return mod_function(depth);
    return numeric_column();
  }

  std::optional<Gen> arithmetic(int depth) {
    static const char kOps[] = {'+', '-', '*', '/', '%'};
    char op = kOps[below(100) < 70 ? below(3) : 3 + below(2)];
    Gen a = numeric(depth - 1);
    Gen b = chance(0.4) ? constant_beside(a, op) : numeric(depth - 1);
    if ((op == '/' || op == '%') && !b.excludes_zero()) {
      if (!take_risk()) b = constant_beside(a, op);
    }
    // Multiplying two DECIMALs adds their scales; keep the binder's limit far away.
    if (op == '*' && as_scale(a) + as_scale(b) > 12) return std::nullopt;
    Gen r = fuzz_detail::arith(a, op, b);
    if (!fuzz_detail::fits(r) && take_risk()) r.risky = true;  // may overflow at run time
    return r;
  }

  static int as_scale(const Gen& g) { return g.kind == FuzzKind::Decimal ? g.scale : 0; }

  // A constant operand for `a op ?`, non-zero when it divides.
  Gen constant_beside(const Gen& a, char op) {
    FuzzKind kind = a.kind;
    if (chance(0.3)) kind = static_cast<FuzzKind>(below(3));  // Int, Decimal or Double
    int scale = kind == FuzzKind::Decimal ? static_cast<int>(below(4)) : 0;
    double lo = 1, hi = 100;
    if (op == '+' || op == '-') {
      lo = -std::max(1.0, a.magnitude());
      hi = std::max(1.0, a.magnitude());
    }
    Gen c = numeric_constant(lo, hi, kind, scale);
    if ((op == '/' || op == '%') && !c.excludes_zero())
      c = numeric_constant(2, 9, FuzzKind::Int, 0);
    return c;
  }

  std::optional<Gen> case_numeric(int depth) {
    Gen then = numeric(depth - 1);
    Gen otherwise = chance(0.5) ? numeric(depth - 1) : constant_beside(then, '+');
    std::string cond = predicate(depth - 1);
    if (chance(0.2)) {  // no ELSE: NULL where the condition fails
      Gen r = fuzz_detail::common_of(then, then);
      r.sql = fmt::format("CASE WHEN {} THEN {} END", cond, then.sql);
      r.nullable = true;
      return r;
    }
    Gen r = fuzz_detail::common_of(then, otherwise);
    r.sql = fmt::format("CASE WHEN {} THEN {} ELSE {} END", cond, then.sql, otherwise.sql);
    return r;
  }

  std::optional<Gen> coalesce_numeric() {
    Gen c = numeric_column();
    Gen fallback = numeric_constant(c.lo, c.hi, c.kind, c.scale);
    Gen r = fuzz_detail::common_of(c, fallback);
    r.nullable = false;
    r.sql = fmt::format("COALESCE({}, {})", c.sql, fallback.sql);
    return r;
  }

  std::optional<Gen> cast_numeric(int depth) {
    Gen x = numeric(depth - 1);
    Gen r = x;
    r.column = false;
    r.source = nullptr;
    r.real = false;
    uint64_t t = below(5);
    if (t == 0) {
      r.kind = FuzzKind::Double;
      r.sql = fmt::format("CAST({} AS DOUBLE)", x.sql);
      return r;
    }
    if (t == 1) {
      r.kind = FuzzKind::Int;
      r.width = 64;
      r.lo = std::round(x.lo) - 1;
      r.hi = std::round(x.hi) + 1;
      r.sql = fmt::format("CAST({} AS BIGINT)", x.sql);
      return r;
    }
    if (t == 2) {
      r.kind = FuzzKind::Int;
      r.width = 32;
      r.lo = std::round(x.lo) - 1;
      r.hi = std::round(x.hi) + 1;
      r.sql = fmt::format("CAST({} AS INTEGER)", x.sql);
      if (!fuzz_detail::fits(r) && !take_risk()) return std::nullopt;
      r.risky = r.risky || !fuzz_detail::fits(r);
      return r;
    }
    r.kind = FuzzKind::Decimal;
    r.scale = static_cast<int>(below(5));
    int digits = static_cast<int>(std::ceil(std::log10(std::max(2.0, x.magnitude() + 2))));
    r.precision =
        std::min(fuzz_detail::kMaxPrecision, digits + r.scale + static_cast<int>(below(3)));
    r.sql = fmt::format("CAST({} AS DECIMAL({}, {}))", x.sql, r.precision, r.scale);
    if (t == 3 && take_risk()) {
      // Too few digits: a numeric overflow wherever a large value reaches it.
      r.precision = std::max(r.scale + 1, r.precision - 3);
      r.sql = fmt::format("CAST({} AS DECIMAL({}, {}))", x.sql, r.precision, r.scale);
      r.risky = true;
      return r;
    }
    if (!fuzz_detail::fits(r)) return std::nullopt;
    return r;
  }

  std::optional<Gen> unary_numeric(int depth, const std::string& fn) {
    Gen x = numeric(depth - 1);
    Gen r = x;
    r.column = false;
    r.source = nullptr;
    if (x.real) r.real = true;
    if (fn == "-") {
      r.sql = fmt::format("(-{})", x.sql);
      r.lo = -x.hi;
      r.hi = -x.lo;
    } else {
      r.sql = fmt::format("ABS({})", x.sql);
      r.lo = x.excludes_zero() ? std::min(std::fabs(x.lo), std::fabs(x.hi)) : 0;
      r.hi = x.magnitude();
    }
    return r;
  }

  std::optional<Gen> round_numeric(int depth) {
    Gen x = numeric(depth - 1);
    int digits = static_cast<int>(below(5)) - 1;  // -1 .. 3
    Gen r = x;
    r.column = false;
    r.source = nullptr;
    r.real = false;
    r.sql = chance(0.2) && digits == 0 ? fmt::format("ROUND({})", x.sql)
                                       : fmt::format("ROUND({}, {})", x.sql, digits);
    double unit = std::pow(10.0, -digits);
    r.lo = std::floor(x.lo / unit) * unit;
    r.hi = std::ceil(x.hi / unit) * unit;
    if (x.kind == FuzzKind::Decimal) {
      int scale = std::max(digits, 0);
      r.precision = std::min(fuzz_detail::kMaxPrecision, x.precision - x.scale + scale + 1);
      r.scale = scale;
    }
    return r;
  }

  // EXTRACT(... FROM date), a date difference in days.
  std::optional<Gen> date_number() {
    auto dates = columns_of(FuzzKind::Date);
    if (dates.empty()) return std::nullopt;
    Gen d = date_expr(dates);
    Gen r;
    r.kind = FuzzKind::Int;
    r.nullable = d.nullable;
    if (dates.size() > 1 && chance(0.3)) {
      Gen e = column(*pick(dates));
      r.width = 32;
      r.sql = fmt::format("({} - {})", d.sql, e.sql);
      r.lo = d.lo - e.hi;
      r.hi = d.hi - e.lo;
      r.nullable = d.nullable || e.nullable;
      return r;
    }
    static const char* kFields[] = {"YEAR", "MONTH", "DAY"};
    uint64_t f = below(3);
    r.width = 64;
    r.sql = fmt::format("EXTRACT({} FROM {})", kFields[f], d.sql);
    YearMonth first = year_month_of(static_cast<int32_t>(d.lo));
    YearMonth last = year_month_of(static_cast<int32_t>(d.hi));
    r.lo = f == 0 ? first.year : 1;
    r.hi = f == 0 ? last.year : f == 1 ? 12 : 31;
    return r;
  }

  // A DATE: a column, shifted by days or an INTERVAL sometimes.
  Gen date_expr(const std::vector<const FuzzColumn*>& dates) {
    Gen d = column(*pick(dates));
    uint64_t r = below(10);
    if (r < 6) return d;
    Gen s = d;
    s.column = false;
    s.source = nullptr;
    if (r < 8) {
      int days = static_cast<int>(below(61)) - 30;
      s.sql = fmt::format("({} + {})", d.sql, days);
      s.lo += days;
      s.hi += days;
      return s;
    }
    static const char* kUnits[] = {"DAY", "MONTH", "YEAR"};
    static const double kUnitDays[] = {1, 31, 366};
    uint64_t unit = below(3);
    int n = 1 + static_cast<int>(below(unit == 0 ? 90 : unit == 1 ? 12 : 2));
    bool minus = chance(0.5);
    s.sql = fmt::format("({} {} INTERVAL '{}' {})", d.sql, minus ? "-" : "+", n, kUnits[unit]);
    double shift = n * kUnitDays[unit];
    s.lo += minus ? -shift : 0;
    s.hi += minus ? 0 : shift;
    return s;
  }

  std::optional<Gen> mod_function(int depth) {
    Gen a = numeric(depth - 1);
    if (a.kind != FuzzKind::Int) a = numeric_column();
    Gen k = numeric_constant(2, 12, FuzzKind::Int, 0);
    Gen r = fuzz_detail::arith(a, '%', k);
    r.sql = fmt::format("MOD({}, {})", a.sql, k.sql);
    return r;
  }

  // ---- errors on purpose ----

  // An expression that raises an execution error on some rows: a division by a column that
  // can be zero, a product or CAST that overflows. Guarded sometimes (CASE, or an AND whose
  // first operand rules the bad rows out), which must then raise nothing: both engines
  // evaluate lazily.
  std::string error_term(bool* guarded) {
    risky_used_ = true;
    *guarded = false;
    auto zeros = columns_where([](const FuzzColumn& c) {
      return (c.kind == FuzzKind::Int || c.kind == FuzzKind::Decimal ||
              c.kind == FuzzKind::Double) &&
             c.lo <= 0 && c.hi >= 0;
    });
    uint64_t r = below(10);
    if (r < 6 && !zeros.empty()) {
      const FuzzColumn& z = *pick(zeros);
      Gen x = numeric(1);
      std::string term = fmt::format("({} {} {})", x.sql, chance(0.7) ? '/' : '%', z.name);
      if (chance(0.3)) {
        *guarded = true;
        return fmt::format("CASE WHEN {} <> 0 THEN {} END", z.name, term);
      }
      return term;
    }
    auto ints = columns_where([](const FuzzColumn& c) {
      return c.kind == FuzzKind::Int && c.width > 16 && c.hi > 40000;
    });
    if (r < 8 && !ints.empty()) {
      const FuzzColumn& c = *pick(ints);
      return c.hi > 3e9 ? fmt::format("({} * {})", c.name, c.name)  // BIGINT overflow
                        : fmt::format("({0} * {0} * {0})", c.name);
    }
    Gen x = numeric_column();
    int digits = static_cast<int>(std::floor(std::log10(std::max(10.0, x.magnitude()))));
    return chance(0.5) ? fmt::format("CAST({} AS DECIMAL({}, 2))", x.sql, digits + 1)
                       : fmt::format("CAST({} AS SMALLINT)", x.sql);
  }

  // A WHERE term around error_term().
  std::string error_predicate() {
    bool guarded = false;
    std::string term = error_term(&guarded);
    std::string condition = fmt::format("{} > {}", term, below(3));
    if (!guarded && chance(0.3)) {
      // Rows where the term raises are ruled out first: no error.
      auto zero = term.find(" / ") != std::string::npos || term.find(" % ") != std::string::npos;
      if (zero) {
        std::string divisor = term.substr(term.rfind(' ') + 1);
        divisor.pop_back();  // ")"
        return fmt::format("({} <> 0 AND {})", divisor, condition);
      }
    }
    return condition;
  }

  // ---- predicates ----

  std::string predicate(int depth) {
    uint64_t r = below(100);
    if (depth > 0 && r < 18) {
      const char* op = chance(0.6) ? " AND " : " OR ";
      size_t n = 2 + below(2);
      std::string s = "(" + predicate(depth - 1);
      for (size_t i = 1; i < n; ++i) s += op + predicate(depth - 1);
      return s + ")";
    }
    if (depth > 0 && r < 23) return "NOT (" + predicate(depth - 1) + ")";
    if (r < 45) return compare_numeric(depth);
    if (r < 52) return between_numeric(depth);
    if (r < 58) return in_list();
    if (r < 65) return is_null();
    if (r < 77) {
      if (auto s = string_predicate()) return *s;
    }
    if (r < 88) {
      if (auto s = date_predicate()) return *s;
    }
    if (r < 92) {
      if (auto s = bool_predicate()) return *s;
    }
    if (r < 96) {
      std::string inner = predicate(depth - 1);
      return fmt::format("CASE WHEN {} THEN 1 ELSE 0 END = {}", inner, below(2));
    }
    return compare_numeric(depth);
  }

  std::string compare_numeric(int depth) {
    Gen a = numeric(depth);
    const char* op = compare_op(a);
    if (chance(0.2)) {
      Gen b = numeric(depth);
      if (b.sql != a.sql) return fmt::format("{} {} {}", a.sql, op, b.sql);
    }
    return fmt::format("{} {} {}", a.sql, op, constant(a));
  }

  std::string between_numeric(int depth) {
    Gen a = numeric(depth);
    return between(a);
  }

  std::string between(const Gen& a) {
    std::vector<std::string> bounds = constants(a, 2);
    return fmt::format("{} {}BETWEEN {} AND {}", a.sql, chance(0.15) ? "NOT " : "", bounds[0],
                       bounds[1]);
  }

  std::string in_list() {
    auto cols = columns_where(
        [](const FuzzColumn& c) { return c.kind != FuzzKind::Double && c.kind != FuzzKind::Bool; });
    Gen c = column(*pick(cols));
    size_t n = 1 + below(4);
    std::string items;
    for (size_t i = 0; i < n; ++i) items += (i ? ", " : "") + constant(c);
    if (chance(0.1)) items += ", NULL";
    return fmt::format("{} {}IN ({})", c.sql, chance(0.2) ? "NOT " : "", items);
  }

  std::string is_null() {
    const FuzzColumn& c = pick(table_->columns);
    std::string x = c.name;
    if (chance(0.2) && (c.kind == FuzzKind::Int || c.kind == FuzzKind::Decimal)) {
      x = fmt::format("({} + 1)", c.name);
    }
    // On a column without NULLs, IS NULL keeps no row: mostly ask IS NOT NULL there.
    bool negated = chance(c.nullable ? 0.5 : 0.85);
    return fmt::format("{} IS {}NULL", x, negated ? "NOT " : "");
  }

  std::optional<std::string> string_predicate() {
    auto strings = columns_of(FuzzKind::String);
    if (strings.empty()) return std::nullopt;
    Gen s = column(*pick(strings));
    uint64_t r = below(10);
    if (r < 4) {
      return fmt::format("{} {}LIKE {}", s.sql, chance(0.25) ? "NOT " : "",
                         literal(FuzzKind::String, like_pattern(s.source->words), false));
    }
    if (r < 8) {
      return fmt::format("{} {} {}", s.sql, compare_op(s), constant(s));
    }
    if (r < 9 && strings.size() > 1) {
      // Two columns: the GPU compares dictionary codes only of one column, so it declines.
      return fmt::format("{} {} {}", s.sql, chance(0.5) ? "=" : "<", pick(strings)->name);
    }
    return between(s);
  }

  std::string like_pattern(const std::vector<std::string>& words) {
    const std::string& w = pick(words);
    size_t cut = w.size() > 1 ? 1 + below(w.size() - 1) : 1;
    switch (below(6)) {
      case 0:
        return w.substr(0, cut) + "%";
      case 1:
        return "%" + w.substr(cut);
      case 2:
        return "%" + w.substr(cut / 2, 2) + "%";
      case 3: {
        std::string p = w;
        p[below(p.size())] = '_';
        return p;
      }
      case 4:
        return "%";
      default:
        return w;
    }
  }

  std::optional<std::string> date_predicate() {
    auto dates = columns_of(FuzzKind::Date);
    if (dates.empty()) return std::nullopt;
    Gen d = date_expr(dates);
    uint64_t r = below(10);
    if (r < 5) return fmt::format("{} {} {}", d.sql, compare_op(d), constant(d));
    if (r < 7) return between(d);
    if (r < 8 && dates.size() > 1) {
      return fmt::format("{} {} {}", d.sql, fuzz_detail::kCompareOps[below(6)], pick(dates)->name);
    }
    Gen n = *date_number();
    return fmt::format("{} {} {}", n.sql, compare_op(n), constant(n));
  }

  std::optional<std::string> bool_predicate() {
    auto bools = columns_of(FuzzKind::Bool);
    if (bools.empty()) return std::nullopt;
    const std::string& b = pick(bools)->name;
    switch (below(4)) {
      case 0:
        return b;
      case 1:
        return "NOT " + b;
      case 2:
        return fmt::format("{} = {}", b, chance(0.5) ? "TRUE" : "FALSE");
      default:
        return fmt::format("COALESCE({}, FALSE)", b);
    }
  }

  // ---- group keys ----

  struct Key {
    std::string sql;
    bool computed = false;
    bool floating = false;
  };

  std::optional<Key> column_key() {
    // A DECIMAL wider than 18 digits: hashed by value alone, declined beside other keys.
    bool wide = chance(0.2);
    auto cols = columns_where([&](const FuzzColumn& c) {
      return c.kind != FuzzKind::Double && c.distinct <= 5000 && (wide || c.precision <= 18);
    });
    if (cols.empty()) return std::nullopt;
    return Key{pick(cols)->name};
  }

  Key computed_key() {
    bool saved = params_allowed_;
    params_allowed_ = false;  // the key's text appears twice; one parameter would be two
    Key k{"", true};
    auto ints = columns_of(FuzzKind::Int);
    auto dates = columns_of(FuzzKind::Date);
    uint64_t r = below(9);
    if (r >= 7) {
      k.sql = computed_string().value_or("");
    } else if (r == 0 && !ints.empty()) {
      k.sql = fmt::format("MOD({}, {})", pick(ints)->name, 2 + below(9));
    } else if (r == 1 && !ints.empty()) {
      k.sql = fmt::format("{} / {}", pick(ints)->name, 2 + below(99));
    } else if (r == 2 && !dates.empty()) {
      k.sql = fmt::format("EXTRACT({} FROM {})", chance(0.5) ? "YEAR" : "MONTH", pick(dates)->name);
    } else if (r == 3) {
      k.sql =
          fmt::format("CASE WHEN {} THEN 1 WHEN {} THEN 2 ELSE 3 END", predicate(1), predicate(0));
    } else if (r == 4) {
      auto decimals = columns_where(
          [](const FuzzColumn& c) { return c.kind == FuzzKind::Decimal && c.precision <= 18; });
      if (!decimals.empty()) k.sql = fmt::format("ROUND({}, 0)", pick(decimals)->name);
    } else if (r == 5) {
      Gen g = numeric(1);
      if (g.kind != FuzzKind::Double) k.sql = g.sql;
    }
    if (k.sql.empty()) k.sql = fmt::format("{} % 3", pick(ints)->name);  // every table has one
    params_allowed_ = saved;
    return k;
  }

  // A VARCHAR from string columns, constants and conditions on any column, which the GPU
  // runs as an id of a string domain (compiler/plan/string_domain.h). No parameters: the text
  // may appear twice (a key in SELECT and GROUP BY).
  std::optional<std::string> computed_string() {
    auto strings = columns_of(FuzzKind::String);
    if (strings.empty()) return std::nullopt;
    bool saved = params_allowed_;
    params_allowed_ = false;
    const FuzzColumn& c = *pick(strings);
    auto word = [&] {
      return literal(FuzzKind::String, c.words.empty() ? "x" : pick(c.words), false);
    };
    std::string sql;
    switch (below(4)) {
      case 0:
        sql = fmt::format("COALESCE({}, {})", c.name, word());
        break;
      case 1:
        sql = fmt::format("CASE WHEN {} THEN {} WHEN {} THEN {} ELSE {} END", predicate(1), word(),
                          predicate(0), c.name, word());
        break;
      case 2:
        sql = fmt::format("CASE WHEN {} THEN {} END", predicate(1), c.name);
        break;
      default:
        sql = fmt::format("COALESCE(CASE WHEN {} THEN {} END, {}, {})", predicate(0), c.name,
                          pick(strings)->name, word());
    }
    params_allowed_ = saved;
    return sql;
  }

  std::vector<Key> group_keys() {
    uint64_t r = below(100);
    size_t n = r < 12 ? 0 : r < 55 ? 1 : r < 82 ? 2 : 3;
    std::vector<Key> keys;
    if (n == 1 && chance(0.1)) {
      auto doubles = columns_of(FuzzKind::Double);
      if (!doubles.empty()) return {Key{pick(doubles)->name, false, true}};
    }
    for (size_t i = 0; i < n; ++i) {
      // Computed keys take the hash path: alone in 64-bit keys, beside other keys in 128-bit
      // ones (one computed key there; two are refused, and come now and then).
      bool computed = n == 1 ? chance(0.45) : chance(0.25);
      std::optional<Key> k = computed ? computed_key() : column_key();
      if (!k) k = computed_key();
      bool duplicate = false;
      for (const auto& other : keys) duplicate = duplicate || other.sql == k->sql;
      if (!duplicate) keys.push_back(*k);
    }
    return keys;
  }

  // ---- aggregates ----

  struct Aggregate {
    std::string sql;
    ColumnTolerance tolerance;
    bool exact = true;  // no floating point: fit for HAVING comparisons
    Gen arg;            // the argument (kind, range) for HAVING constants
    bool has_arg = false;
  };

  Aggregate aggregate() {
    uint64_t r = below(100);
    Aggregate a;
    if (r < 14) {
      a.sql = "COUNT(*)";
      a.arg.kind = FuzzKind::Int;
      a.arg.lo = 0;
      a.arg.hi = 500;  // rows in a group, about
      a.has_arg = true;
      return a;
    }
    if (r < 22) {
      const FuzzColumn& c = pick(table_->columns);
      std::string x = chance(0.7) ? c.name : numeric(1).sql;
      if (c.kind == FuzzKind::String && chance(0.3)) x = computed_string().value_or(x);
      a.sql = fmt::format("COUNT({}{})", chance(0.15) ? "DISTINCT " : "", x);
      return a;
    }
    if (r < 36) return numeric_aggregate("SUM");
    if (r < 49) return min_max(chance(0.5) ? "MIN" : "MAX");
    if (r < 61) return numeric_aggregate("AVG");
    if (r < 68) return numeric_aggregate(chance(0.8) ? "STDDEV_SAMP" : "STDDEV");
    if (r < 75) return numeric_aggregate(chance(0.8) ? "VAR_SAMP" : "VARIANCE");
    if (r < 78) return numeric_aggregate(chance(0.5) ? "MIN" : "MAX");
    if (r < 80) return arg_min_max();
    return numeric_aggregate(r < 90 ? "SUM" : "AVG");
  }

  // ARG_MIN / ARG_MAX of bare columns: the kept value is one of the column's, and rows tied
  // on the key keep the least value on both engines, so even a DOUBLE compares exactly.
  Aggregate arg_min_max() {
    const FuzzColumn& value = pick(table_->columns);
    const FuzzColumn& key = pick(table_->columns);
    Aggregate a;
    a.sql = fmt::format("{}({}, {})", chance(0.5) ? "ARG_MIN" : "ARG_MAX", value.name, key.name);
    return a;  // has_arg false: HAVING compares no constant with it
  }

  // FILTER (WHERE cond) on a few aggregates. The condition takes no parameters: the
  // WHERE's own are tracked apart for the partition checks.
  Aggregate with_filter(Aggregate a) {
    if (!chance(0.06)) return a;
    const bool saved = params_allowed_;
    params_allowed_ = false;
    a.sql += fmt::format(" FILTER (WHERE {})", predicate(1));
    params_allowed_ = saved;
    return a;
  }

  // How far the GPU's float aggregate may stray from the CPU's. Both add the same values in
  // different orders (atomics, threads), so sums agree to about 1e-16 of the sum of |x|: a
  // relative 1e-9, and an absolute part for sums that cancel out near zero. VAR/STDDEV of
  // DOUBLE sum squared deviations from the mean (CPU: Welford/Chan; GPU: a second pass from
  // a mean that a plain double sum gave, off by up to ~1e-11 of max|x| over 10^5 rows): the
  // variance may be off by the square of that mean error, ~1e-22 max|x|^2, and STDDEV, where
  // the true spread is ~0, by the error itself; 1e-6 relative besides. An exact
  // (integer/DECIMAL) variance comes from exact sums on both sides.
  ColumnTolerance float_tolerance(const std::string& fn, const Gen& x) const {
    double m = x.magnitude();
    if (fn.rfind("VAR", 0) == 0) {
      return x.kind == FuzzKind::Double ? ColumnTolerance{1e-6, 1e-21 * m * m + 1e-12}
                                        : ColumnTolerance{1e-9, 1e-12};
    }
    if (fn.rfind("STDDEV", 0) == 0) {
      return x.kind == FuzzKind::Double ? ColumnTolerance{1e-6, 1e-10 * m + 1e-12}
                                        : ColumnTolerance{1e-9, 1e-12};
    }
    if (fn == "SUM") return {1e-9, 1e-13 * m * table_->rows + 1e-12};
    return {1e-9, 1e-12 * m + 1e-12};
  }

  Aggregate numeric_aggregate(const std::string& fn) {
    bool variance = fn.rfind("VAR", 0) == 0 || fn.rfind("STDDEV", 0) == 0;
    Gen x = numeric(static_cast<int>(below(3)));
    if (variance && x.kind == FuzzKind::Decimal &&
        x.magnitude() * std::pow(10.0, x.scale) > fuzz_detail::kVarianceUnscaled) {
      x = numeric_column();
    }
    Aggregate a;
    a.sql = fmt::format("{}({})", fn, x.sql);
    a.arg = x;
    a.has_arg = true;
    if (x.kind == FuzzKind::Double || variance) {
      a.exact = false;
      a.tolerance = float_tolerance(fn, x);
    }
    if (fn == "SUM") {  // a group's sum, for HAVING: groups hold dozens of rows or more
      a.arg.lo = std::min(0.0, x.lo * 50);
      a.arg.hi = std::max(0.0, x.hi * 50);
      a.arg.column = false;
    }
    // DISTINCT (SUM, AVG, MIN, MAX; VAR/STDDEV(DISTINCT) tally does not take at all).
    if (!variance && chance(0.08)) a.sql = fmt::format("{}(DISTINCT {})", fn, x.sql);
    return a;
  }

  Aggregate min_max(const std::string& fn) {
    Aggregate a;
    const FuzzColumn& c = pick(table_->columns);
    if (c.kind == FuzzKind::String && chance(0.25)) {
      if (auto s = computed_string()) {
        a.sql = fmt::format("{}({})", fn, *s);
        return a;  // has_arg false: no HAVING constants to compare a computed string with
      }
    }
    Gen g = column(c);
    if (c.kind == FuzzKind::Date && chance(0.3)) g = date_expr(columns_of(FuzzKind::Date));
    a.sql = fmt::format("{}({})", fn, g.sql);
    a.arg = g;
    a.has_arg = c.kind != FuzzKind::Bool;
    a.exact = true;  // a bare column's MIN/MAX is one of its values, even for DOUBLE
    return a;
  }

  // ---- HAVING ----

  inline static const std::vector<int> kCountsAbove = {0, 1, 2, 5, 20, 100, 1000};
  inline static const std::vector<int> kCountsAtMost = {1, 5, 20, 100, 1000, 100000};

  std::string having(const std::vector<Aggregate>& aggs, const std::vector<Key>& keys) {
    std::vector<std::string> terms;
    size_t n = 1 + below(2);
    for (size_t i = 0; i < n; ++i) {
      std::vector<const Aggregate*> usable;
      for (const auto& a : aggs)
        if (a.exact && a.has_arg) usable.push_back(&a);
      uint64_t r = below(10);
      if (r < 3 || usable.empty()) {
        terms.push_back(chance(0.7) ? fmt::format("COUNT(*) > {}", pick(kCountsAbove))
                                    : fmt::format("COUNT(*) <= {}", pick(kCountsAtMost)));
      } else if (r < 8) {
        const Aggregate& a = *pick(usable);
        terms.push_back(fmt::format("{} {} {}", a.sql, fuzz_detail::kCompareOps[2 + below(4)],
                                    constant(a.arg)));
      } else if (!keys.empty() && !keys[0].floating) {
        terms.push_back(fmt::format("{} IS NOT NULL", keys[0].sql));
      } else {
        Aggregate extra = min_max(chance(0.5) ? "MIN" : "MAX");
        terms.push_back(extra.has_arg ? fmt::format("{} >= {}", extra.sql, constant(extra.arg))
                                      : extra.sql + " IS NULL");
      }
    }
    std::string joined = terms[0];
    for (size_t i = 1; i < terms.size(); ++i) joined += (chance(0.6) ? " AND " : " OR ") + terms[i];
    return joined;
  }

  // ---- the statement ----

  std::string aggregate_query(QueryShape& shape) {
    params_allowed_ = true;
    std::vector<Key> keys = group_keys();
    std::vector<Aggregate> aggs;
    size_t n = 1 + below(4) + (chance(0.2) ? 1 : 0);
    for (size_t i = 0; i < n; ++i) {
      Aggregate a = with_filter(aggregate());
      bool repeated = false;
      for (const auto& b : aggs) repeated = repeated || b.sql == a.sql;
      if (!repeated || chance(0.1)) aggs.push_back(a);
    }
    std::string filter = chance(0.8) ? predicate(static_cast<int>(below(3))) : "";
    if (error_shape_) {
      if (chance(0.5)) {
        bool guarded = false;
        Aggregate a;
        a.sql = fmt::format("SUM({})", error_term(&guarded));
        a.tolerance = {1e-9, 1e-12};  // the term may be DOUBLE
        a.exact = false;
        aggs.push_back(a);
      } else {
        filter = filter.empty() ? error_predicate() : "(" + filter + ") AND " + error_predicate();
      }
    }
    std::string having_clause = !keys.empty() && chance(0.25) ? having(aggs, keys) : "";
    shape.filter = filter;
    for (const auto& k : keys) shape.keys.push_back(k.sql);

    uint64_t style = below(10);  // GROUP BY the expression (6), its position (2), its alias (2)
    std::vector<std::string> items, group_by;
    for (size_t i = 0; i < keys.size(); ++i) {
      shape.tolerances.push_back({});
      if (style < 8) {
        items.push_back(keys[i].sql);
        group_by.push_back(style < 6 ? keys[i].sql : std::to_string(i + 1));
      } else {
        items.push_back(fmt::format("{} AS k{}", keys[i].sql, i));
        group_by.push_back(fmt::format("k{}", i));
      }
    }
    for (const auto& a : aggs) {
      items.push_back(a.sql);
      shape.tolerances.push_back(a.tolerance);
    }
    if (chance(0.12)) {
      // An expression over aggregate results, computed after the aggregation.
      const Aggregate& a = pick(aggs);
      if (a.exact && a.has_arg && a.arg.numeric()) {
        items.push_back(chance(0.5) ? fmt::format("{} + 1", a.sql)
                                    : fmt::format("{} * 2 - COUNT(*)", a.sql));
        shape.tolerances.push_back({});
      } else {
        items.push_back("COUNT(*) * 2");
        shape.tolerances.push_back({});
      }
    }
    std::string sql = "SELECT ";
    for (size_t i = 0; i < items.size(); ++i) sql += (i ? ", " : "") + items[i];
    sql += " FROM " + table_->name;
    if (!filter.empty()) sql += " WHERE " + filter;
    if (!group_by.empty()) {
      sql += " GROUP BY ";
      for (size_t i = 0; i < group_by.size(); ++i) sql += (i ? ", " : "") + group_by[i];
    }
    if (!having_clause.empty()) sql += " HAVING " + having_clause;
    return sql;
  }

  // SELECT DISTINCT keys: grouping without aggregates.
  std::string distinct_query(QueryShape& shape) {
    params_allowed_ = true;
    std::vector<Key> keys;
    while (keys.empty()) keys = group_keys();
    std::string sql = "SELECT DISTINCT ";
    for (size_t i = 0; i < keys.size(); ++i) {
      sql += (i ? ", " : "") + keys[i].sql;
      shape.tolerances.push_back({});
    }
    sql += " FROM " + table_->name;
    if (chance(0.7)) shape.filter = predicate(1);
    if (!shape.filter.empty()) sql += " WHERE " + shape.filter;
    for (const auto& k : keys) shape.keys.push_back(k.sql);
    return sql;
  }

  // SELECT expressions over columns, no aggregation: a filter mostly (results stay small
  // enough to compare), sometimes ORDER BY and LIMIT.
  std::string projection_query(QueryShape& shape) {
    params_allowed_ = true;
    std::vector<std::string> items;
    bool computed_double = false;
    size_t n = 1 + below(4);
    for (size_t i = 0; i < n; ++i) {
      Gen g = chance(0.5) ? column(pick(table_->columns)) : numeric(static_cast<int>(below(3)));
      items.push_back(g.sql);
      // A row's DOUBLE takes the same operations on both engines, but NVRTC may fuse a
      // multiply and an add: close, not equal, and near zero after a cancellation.
      bool inexact = g.kind == FuzzKind::Double && !g.column;
      computed_double = computed_double || inexact;
      shape.tolerances.push_back(inexact ? ColumnTolerance{1e-9, 1e-6} : ColumnTolerance{});
    }
    std::string filter = chance(0.9) ? predicate(static_cast<int>(below(3))) : "";
    if (error_shape_) {
      bool guarded = false;
      items.push_back(error_term(&guarded));
      shape.tolerances.push_back({1e-9, 1e-6});  // the term may be DOUBLE
      computed_double = true;
    }
    shape.filter = filter;
    std::string sql = "SELECT ";
    for (size_t i = 0; i < items.size(); ++i) sql += (i ? ", " : "") + items[i];
    sql += " FROM " + table_->name;
    if (!filter.empty()) sql += " WHERE " + filter;
    if (!computed_double && chance(0.3)) {
      // Every output a sort key, none inexact: LIMIT keeps the same rows on both engines.
      sql += " ORDER BY ";
      for (size_t i = 0; i < items.size(); ++i) sql += fmt::format("{}{}", i ? ", " : "", i + 1);
      sql += fmt::format(" LIMIT {}", 1 + below(100));
    }
    return sql;
  }

  // Markers become `?` in the order they appear in the text, which fixes parameter numbers.
  void resolve_parameters(QueryShape& shape) {
    resolve_markers(shape.sql, shape.parameters);
    resolve_markers(shape.filter, shape.filter_parameters);
  }

  void resolve_markers(std::string& text, std::vector<std::vector<std::string>>& parameters) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '\x01') {
        out += text[i];
        continue;
      }
      size_t end = text.find('\x01', i + 1);
      size_t id = std::stoul(text.substr(i + 1, end - i - 1));
      parameters.push_back(markers_[id]);
      out += '?';
      i = end;
    }
    text = std::move(out);
  }

  std::mt19937_64 rng_;
  size_t instances_;
  const FuzzTable* table_ = nullptr;
  std::vector<std::vector<std::string>> markers_;  // parameter values, by marker id
  bool params_allowed_ = true;
  int risk_budget_ = 0;
  bool risky_used_ = false;
  bool error_shape_ = false;  // the shape carries an error_term()
};

}  // namespace tally::test
