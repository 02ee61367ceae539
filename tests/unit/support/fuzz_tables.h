// The fuzz tables of the differential tests: their schemas and value ranges, written out
// from the generators' documented rules (not read from the tables), registered in a
// Database, and the environment variables that resize a fuzz run.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
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

// One database of the fuzz tables (seed 7) for the process, made at first use.
inline Database& fuzz_database() {
  static Database* db = [] {
    auto* d = new Database();
    register_fuzz_tables(*d);
    return d;
  }();
  return *db;
}

// A number from the environment (TALLY_FUZZ_SEED, ...), or `fallback` when it is unset.
inline uint64_t fuzz_env(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  return text && *text ? std::strtoull(text, nullptr, 0) : fallback;
}

}  // namespace tally::test
