#include "tools/fuzz/schema.h"

#include <fmt/format.h>

#include "tools/fuzz/rng.h"

namespace tally::fuzz {

namespace {

// Builds "INSERT INTO name VALUES (...), (...)" from rows of SQL literals.
std::string insert_rows(const std::string& table, const std::vector<std::string>& rows) {
  std::string sql = "INSERT INTO " + table + " VALUES ";
  for (size_t i = 0; i < rows.size(); ++i) sql += (i ? ",\n  (" : "\n  (") + rows[i] + ")";
  return sql;
}

// A value or, one time in `null_one_in`, NULL: every column holds some NULLs.
std::string maybe_null(Rng& rng, const std::string& value, int null_one_in = 8) {
  return rng.below(null_one_in) == 0 ? "NULL" : value;
}

std::string date_literal(Rng& rng, int lo_year, int hi_year) {
  return fmt::format("DATE '{:04}-{:02}-{:02}'", rng.between(lo_year, hi_year), rng.between(1, 12),
                     rng.between(1, 28));
}

// `t`: every type, ordinary values (so most aggregates succeed), some NULLs.
std::vector<std::string> rows_of_t() {
  Rng rng(11);
  const std::vector<std::string> keys = {"'a'", "'b'", "'c'", "''", "'é'", "'日本'", "'a%'"};
  std::vector<std::string> rows;
  for (int id = 0; id < 96; ++id) {
    rows.push_back(fmt::format(
        "{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}", id,
        maybe_null(rng, std::to_string(rng.between(-300, 300))),
        maybe_null(rng, std::to_string(rng.between(-100000, 100000))),
        maybe_null(rng, std::to_string(rng.between(-5000000000LL, 5000000000LL))),
        maybe_null(rng, fmt::format("{}.25", rng.between(-1000, 1000))),
        maybe_null(rng, fmt::format("{}.5e{}", rng.between(-99, 99), rng.between(-3, 6))),
        maybe_null(rng, fmt::format("{}.{:02}", rng.between(-99999, 99999), rng.below(100))),
        maybe_null(rng,
                   fmt::format("{}.{:06}", rng.between(-999999999, 999999999), rng.below(1000000))),
        maybe_null(rng, date_literal(rng, 1990, 2030)), maybe_null(rng, rng.pick(keys)),
        maybe_null(rng, fmt::format("'{}'", std::string(rng.below(3), 'x'))),
        maybe_null(rng, rng.chance(50) ? "TRUE" : "FALSE"),
        maybe_null(rng, std::to_string(rng.between(0, 9)))));
  }
  return rows;
}

// `e`: the edges, few rows; most arithmetic over it overflows or divides by zero, which
// must be an error with a message, never a crash or a wrong value.
std::vector<std::string> rows_of_e() {
  return {
      "0, 0, 0, 0, 0, 0, 0.00, 0.000000, DATE '1970-01-01', '', '', FALSE, 0",
      "1, 32767, 2147483647, 9223372036854775807, 3.4e38, 1e308, 99999999.99, "
      "99999999999999999999999999999999.999999, DATE '9999-12-31', 'zzzzzzzzzzzzzzzzzzzz', "
      "'zz', TRUE, 9",
      "2, -32768, -2147483648, -9223372036854775808, -3.4e38, -1e308, -99999999.99, "
      "-99999999999999999999999999999999.999999, DATE '0001-01-01', 'ÿ', 'é', FALSE, -1",
      "3, -1, -1, -1, 1e-38, 2.2250738585072014e-308, 0.01, 0.000001, DATE '2000-02-29', "
      "'日本語テキスト', "
      "'a''', TRUE, 1",
      "4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL",
      "5, 1, 1, 1, -0.0, -0.0, -0.01, -0.000001, DATE '1969-12-31', '%_\\', ' ', NULL, 2",
  };
}

std::vector<std::string> rows_of_lineitem() {
  Rng rng(13);
  const std::vector<std::string> modes = {"'AIR'", "'MAIL'", "'SHIP'", "'REG AIR'", "'TRUCK'"};
  const std::vector<std::string> instructs = {"'DELIVER IN PERSON'", "'NONE'", "'TAKE BACK RETURN'",
                                              "'COLLECT COD'"};
  std::vector<std::string> rows;
  for (int i = 0; i < 160; ++i) {
    std::string ship = date_literal(rng, 1992, 1998);
    rows.push_back(fmt::format(
        "{}, {}, {}, {}, {}.00, {}.{:02}, 0.{:02}, 0.0{}, {}, {}, {}, {} + {}, {} + {}, {}, {}, "
        "{}",
        rng.between(1, 600), rng.between(1, 2000), rng.between(1, 100), rng.between(1, 7),
        rng.between(1, 50), rng.between(900, 100000), rng.below(100), rng.below(11), rng.below(9),
        rng.pick(std::vector<std::string>{"'R'", "'A'", "'N'"}), rng.chance(50) ? "'O'" : "'F'",
        ship, ship, rng.between(-30, 30), ship, rng.between(1, 30), rng.pick(instructs),
        rng.pick(modes), maybe_null(rng, "'carefully final deposits'", 4)));
  }
  return rows;
}

std::vector<std::string> rows_of_small(int which) {
  Rng rng(17 + which);
  std::vector<std::string> rows;
  for (int i = 0; i < 64; ++i) {
    if (which == 0) {
      rows.push_back(fmt::format("{}, {}.5, {}.25, {}.0", rng.between(10000, 10020),
                                 rng.between(1, 500), rng.between(0, 40), rng.between(501, 900)));
    } else {
      rows.push_back(fmt::format("{}, {}, {}.125, {}.{:02}", rng.between(0, 5000),
                                 rng.between(-50, 50), rng.between(-9, 9), rng.between(-9999, 9999),
                                 rng.below(100)));
    }
  }
  return rows;
}

}  // namespace

const std::vector<FuzzTable>& fuzz_tables() {
  static const std::vector<FuzzTable> kTables = [] {
    const std::vector<FuzzColumn> all_types = {
        {"id", Cls::Int}, {"s", Cls::Int},  {"i", Cls::Int}, {"b", Cls::Int},   {"r", Cls::Dbl},
        {"d", Cls::Dbl},  {"m", Cls::Dec},  {"w", Cls::Dec}, {"dt", Cls::Date}, {"v", Cls::Str},
        {"c", Cls::Str},  {"f", Cls::Bool}, {"k", Cls::Int}};
    return std::vector<FuzzTable>{
        {"t", all_types, 60},
        {"e", all_types, 15},
        {"z", all_types, 5},
        {"lineitem",
         {{"l_orderkey", Cls::Int},
          {"l_partkey", Cls::Int},
          {"l_suppkey", Cls::Int},
          {"l_linenumber", Cls::Int},
          {"l_quantity", Cls::Dec},
          {"l_extendedprice", Cls::Dec},
          {"l_discount", Cls::Dec},
          {"l_tax", Cls::Dec},
          {"l_returnflag", Cls::Str},
          {"l_linestatus", Cls::Str},
          {"l_shipdate", Cls::Date},
          {"l_commitdate", Cls::Date},
          {"l_receiptdate", Cls::Date},
          {"l_shipinstruct", Cls::Str},
          {"l_shipmode", Cls::Str},
          {"l_comment", Cls::Str}},
         12},
        {"orders",
         {{"zip", Cls::Int},
          {"chargedamount", Cls::Dbl},
          {"tax", Cls::Dbl},
          {"ordertotal", Cls::Dbl}},
         4},
        {"atable",
         {{"col1", Cls::Int}, {"col2", Cls::Int}, {"col3", Cls::Dbl}, {"col4", Cls::Dec}},
         4},
    };
  }();
  return kTables;
}

std::vector<std::string> fuzz_schema_statements() {
  const char* all_types =
      " (id INTEGER, s SMALLINT, i INTEGER, b BIGINT, r REAL, d DOUBLE, m DECIMAL(10,2), "
      "w DECIMAL(38,6), dt DATE, v VARCHAR(20), c CHAR(2), f BOOLEAN, k INTEGER)";
  return {
      std::string("CREATE TABLE t") + all_types,
      insert_rows("t", rows_of_t()),
      std::string("CREATE TABLE e") + all_types,
      insert_rows("e", rows_of_e()),
      std::string("CREATE TABLE z") + all_types,
      "CREATE TABLE lineitem (l_orderkey BIGINT, l_partkey INTEGER, l_suppkey INTEGER, "
      "l_linenumber INTEGER, l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), "
      "l_discount DECIMAL(15,2), l_tax DECIMAL(15,2), l_returnflag CHAR(1), "
      "l_linestatus CHAR(1), l_shipdate DATE, l_commitdate DATE, l_receiptdate DATE, "
      "l_shipinstruct CHAR(25), l_shipmode CHAR(10), l_comment VARCHAR(44))",
      insert_rows("lineitem", rows_of_lineitem()),
      "CREATE TABLE orders (zip INTEGER, chargedamount REAL, tax REAL, ordertotal REAL)",
      insert_rows("orders", rows_of_small(0)),
      "CREATE TABLE atable (col1 BIGINT, col2 INTEGER, col3 DOUBLE, col4 DECIMAL(12,2))",
      insert_rows("atable", rows_of_small(1)),
  };
}

}  // namespace tally::fuzz
