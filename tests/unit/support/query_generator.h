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
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/session/database.h"
#include "tests/unit/support/expression_generator.h"
#include "tests/unit/support/result_check.h"

namespace tally::test {

class QueryGenerator : public ExpressionGenerator {
 public:
  // `instances`: parameter value sets per shape.
  explicit QueryGenerator(uint64_t seed, size_t instances = 4)
      : ExpressionGenerator(seed, instances) {}

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
};

}  // namespace tally::test
