// The expression half of the query generator: seeded randomness, columns of the fuzz tables,
// constants and `?` parameters, numeric and date expressions, errors on purpose and
// predicates, each tracked as a Gen (tests/unit/support/fuzz_shapes.h). QueryGenerator
// (tests/unit/support/query_generator.h) builds statements from them.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/unit/support/fuzz_shapes.h"

namespace tally::test {

class ExpressionGenerator {
 public:
  using Gen = fuzz_detail::Gen;

  explicit ExpressionGenerator(uint64_t seed, size_t instances)
      : rng_(seed), instances_(std::max<size_t>(1, instances)) {}

 protected:
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
    if (t == 1 || t == 2) {  // BIGINT, or INTEGER, which may overflow
      r.kind = FuzzKind::Int;
      r.width = t == 1 ? 64 : 32;
      r.lo = std::round(x.lo) - 1;
      r.hi = std::round(x.hi) + 1;
      r.sql = fmt::format("CAST({} AS {})", x.sql, t == 1 ? "BIGINT" : "INTEGER");
      if (t == 1) return r;
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
