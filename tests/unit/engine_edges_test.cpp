// Edge cases of the engine through Database + SQL on small INSERTed tables: NULLs in every
// aggregate, empty inputs, overflow and division errors, DECIMAL exactness and rounding,
// sample variance, ORDER BY with NULLs, LIMIT/OFFSET, and multi-threaded determinism.
// Every expected value is worked out by hand in the comments next to it.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "compiler/bind/binder.h"
#include "compiler/parse/parser.h"
#include "runtime/cpu/cpu_engine.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

using test::bool_cell;
using test::decimal_cell;
using test::double_cell;
using test::expect_rows;
using test::int_cell;
using test::null_cell;
using test::Rows;
using test::run_script;
using test::run_sql;
using test::text_cell;

// The Error a statement throws, if any.
std::optional<Error> failure_of(Database& db, const std::string& sql) {
  try {
    run_sql(db, sql);
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

// Checks that `sql` fails at run time with a message containing `needle`.
void expect_execution_error(Database& db, const std::string& sql, const std::string& needle) {
  INFO(sql);
  std::optional<Error> error = failure_of(db, sql);
  REQUIRE(error.has_value());
  CHECK(error->kind() == ErrorKind::Execution);
  CHECK_MESSAGE(std::string(error->what()).find(needle) != std::string::npos,
                std::string(error->what()));
}

// A table of one column `x` of `type` holding `count` copies of the unscaled `value`.
TablePtr repeated_table(const std::string& name, Type type, int128 value, size_t count) {
  TableSchema schema{name, {{"x", type, false}}};
  ColumnBuilder builder(type);
  for (size_t i = 0; i < count; ++i) builder.append_wide(value);
  return std::make_shared<const Table>(Table{std::move(schema), {builder.finish()}});
}

// ---- NULLs in aggregates ----

TEST_CASE("engine: every aggregate skips NULLs - an all-NULL group gives NULL (COUNT 0)") {
  Database db;
  run_script(db,
             "CREATE TABLE t (g INTEGER, x INTEGER, d DECIMAL(6,2), f DOUBLE);"
             "INSERT INTO t VALUES (1, NULL, NULL, NULL), (1, NULL, NULL, NULL),"
             " (2, 1, 1.50, 1.5), (2, NULL, NULL, NULL), (2, 3, 2.25, 2.5)");
  Result r = run_sql(db,
                     "SELECT g, COUNT(*), COUNT(x), SUM(x), AVG(x), MIN(x), MAX(x), VAR_SAMP(x),"
                     " STDDEV_SAMP(x), COUNT(DISTINCT x) FROM t GROUP BY g ORDER BY g");
  // Group 2: x = 1, 3 -> sum 4, avg 2.000000, sample variance ((1-2)^2 + (3-2)^2) / 1 = 2.
  expect_rows(
      r, {{int_cell(1), int_cell(2), int_cell(0), null_cell(), null_cell(), null_cell(),
           null_cell(), null_cell(), null_cell(), int_cell(0)},
          {int_cell(2), int_cell(3), int_cell(2), int_cell(4), decimal_cell(2000000, 6),
           int_cell(1), int_cell(3), double_cell(2), double_cell(std::sqrt(2.0L)), int_cell(2)}});
  // DECIMAL: 1.50 + 2.25 = 3.75; AVG 1.875000 (scale max(2,6)); variance of 1.5 and 2.25:
  // mean 1.875, (0.375^2 * 2) / 1 = 0.28125.
  r = run_sql(db,
              "SELECT g, SUM(d), AVG(d), MIN(d), MAX(d), VAR_SAMP(d) FROM t GROUP BY g ORDER BY g");
  expect_rows(r, {{int_cell(1), null_cell(), null_cell(), null_cell(), null_cell(), null_cell()},
                  {int_cell(2), decimal_cell(375, 2), decimal_cell(1875000, 6),
                   decimal_cell(150, 2), decimal_cell(225, 2), double_cell(0.28125L)}});
  // DOUBLE: 1.5 + 2.5 = 4, AVG 2, variance ((0.5)^2 * 2) / 1 = 0.5.
  r = run_sql(db,
              "SELECT g, SUM(f), AVG(f), MIN(f), MAX(f), VAR_SAMP(f) FROM t GROUP BY g ORDER BY g");
  expect_rows(r, {{int_cell(1), null_cell(), null_cell(), null_cell(), null_cell(), null_cell()},
                  {int_cell(2), double_cell(4), double_cell(2), double_cell(1.5), double_cell(2.5),
                   double_cell(0.5)}});
}

TEST_CASE("engine: COUNT(*) counts rows - COUNT(x) counts non-NULL values") {
  Database db;
  run_script(db,
             "CREATE TABLE t (x VARCHAR(5));"
             "INSERT INTO t VALUES ('a'), (NULL), ('b'), (NULL), (NULL)");
  expect_rows(run_sql(db, "SELECT COUNT(*), COUNT(x), COUNT(DISTINCT x) FROM t"),
              {{int_cell(5), int_cell(2), int_cell(2)}});
}

TEST_CASE("engine: NULL group keys form one group") {
  Database db;
  run_script(db,
             "CREATE TABLE t (k VARCHAR(5), n INTEGER, v INTEGER);"
             "INSERT INTO t VALUES ('a', 1, 1), (NULL, NULL, 2), ('b', 2, 3), (NULL, NULL, 4),"
             " (NULL, 1, NULL)");
  // k: a -> {1}, b -> {3}, NULL -> {2, 4, NULL}: 3 rows, sum 6.
  expect_rows(run_sql(db, "SELECT k, COUNT(*), SUM(v) FROM t GROUP BY k ORDER BY k NULLS LAST"),
              {{text_cell("a"), int_cell(1), int_cell(1)},
               {text_cell("b"), int_cell(1), int_cell(3)},
               {null_cell(), int_cell(3), int_cell(6)}});
  // n: NULL -> {2, 4}, 1 -> {1, NULL}, 2 -> {3}.
  expect_rows(run_sql(db, "SELECT n, COUNT(*), SUM(v) FROM t GROUP BY n ORDER BY n NULLS FIRST"),
              {{null_cell(), int_cell(2), int_cell(6)},
               {int_cell(1), int_cell(2), int_cell(1)},
               {int_cell(2), int_cell(1), int_cell(3)}});
  // Two keys: (NULL, NULL) twice -> one group.
  expect_rows(run_sql(db,
                      "SELECT k, n, COUNT(*) FROM t WHERE k IS NULL GROUP BY k, n"
                      " ORDER BY n NULLS FIRST"),
              {{null_cell(), null_cell(), int_cell(2)}, {null_cell(), int_cell(1), int_cell(1)}});
}

// ---- empty inputs ----

TEST_CASE("engine: an empty table gives one row without GROUP BY and none with it") {
  Database db;
  run_script(db, "CREATE TABLE t (g INTEGER, x DECIMAL(10,2))");
  expect_rows(run_sql(db, "SELECT COUNT(*), COUNT(x), SUM(x), AVG(x), MIN(x), MAX(x) FROM t"),
              {{int_cell(0), int_cell(0), null_cell(), null_cell(), null_cell(), null_cell()}});
  expect_rows(run_sql(db, "SELECT g, COUNT(*), SUM(x) FROM t GROUP BY g"), {});
  // A WHERE that keeps no row behaves the same.
  run_script(db, "INSERT INTO t VALUES (1, 2.50)");
  expect_rows(run_sql(db, "SELECT COUNT(*), SUM(x) FROM t WHERE g > 5"),
              {{int_cell(0), null_cell()}});
  expect_rows(run_sql(db, "SELECT g, COUNT(*) FROM t WHERE g > 5 GROUP BY g"), {});
}

// ---- overflow and division errors ----

TEST_CASE("engine: SUM of BIGINT beyond the BIGINT range is an exact DECIMAL(38 0)") {
  Database db;
  run_script(db,
             "CREATE TABLE t (x BIGINT);"
             "INSERT INTO t VALUES (9223372036854775807), (1)");
  // 2^63, as PostgreSQL's NUMERIC and DuckDB's HUGEINT give it.
  expect_rows(run_sql(db, "SELECT SUM(x) FROM t"),
              {{decimal_cell(static_cast<int128>(INT64_MAX) + 1, 0)}});
  run_script(db,
             "CREATE TABLE n (x BIGINT);"
             "INSERT INTO n VALUES (-9223372036854775807), (-2)");
  expect_rows(run_sql(db, "SELECT SUM(x) FROM n"),
              {{decimal_cell(-static_cast<int128>(INT64_MAX) - 2, 0)}});
  run_script(db, "INSERT INTO t VALUES (-1)");
  expect_rows(run_sql(db, "SELECT SUM(x) FROM t"), {{decimal_cell(INT64_MAX, 0)}});
}

TEST_CASE("engine: integer overflow in arithmetic is an error") {
  Database db;
  run_script(db,
             "CREATE TABLE t (i INTEGER, b BIGINT, s SMALLINT);"
             "INSERT INTO t VALUES (2147483647, 9223372036854775807, 32767)");
  for (const char* sql : {"SELECT i + 1 FROM t", "SELECT -i - 2 FROM t", "SELECT b * 2 FROM t",
                          "SELECT b + b FROM t", "SELECT SUM(i * i) FROM t"}) {
    expect_execution_error(db, sql, "out of range");
  }
  // In range: INTEGER + INTEGER stays INTEGER, 2147483647 - 1.
  expect_rows(run_sql(db, "SELECT i - 1, s - 1 FROM t"), {{int_cell(2147483646), int_cell(32766)}});
}

TEST_CASE("engine: division by zero is an error for every type") {
  Database db;
  run_script(db,
             "CREATE TABLE t (i INTEGER, z INTEGER, d DECIMAL(6,2), f DOUBLE);"
             "INSERT INTO t VALUES (7, 0, 1.50, 2.0)");
  for (const char* sql : {"SELECT i / z FROM t", "SELECT i % z FROM t", "SELECT MOD(i, z) FROM t",
                          "SELECT d / z FROM t", "SELECT d / 0.00 FROM t", "SELECT f / z FROM t",
                          "SELECT f / 0.0e0 FROM t", "SELECT SUM(i) / SUM(z) FROM t"}) {
    expect_execution_error(db, sql, "division by zero");
  }
  // Division by zero only where the row reaches it: the WHERE removes the row first.
  expect_rows(run_sql(db, "SELECT COUNT(i / z) FROM t WHERE z <> 0"), {{int_cell(0)}});
}

TEST_CASE("engine: integer division truncates and % takes the sign of the dividend") {
  Database db;
  run_script(db,
             "CREATE TABLE t (a INTEGER, b INTEGER);"
             "INSERT INTO t VALUES (7, 2), (-7, 2), (7, -2), (-7, -2)");
  // 7/2 = 3 r 1; -7/2 = -3 r -1; 7/-2 = -3 r 1; -7/-2 = 3 r -1.
  expect_rows(run_sql(db, "SELECT a / b, a % b, MOD(a, b) FROM t"),
              {{int_cell(3), int_cell(1), int_cell(1)},
               {int_cell(-3), int_cell(-1), int_cell(-1)},
               {int_cell(-3), int_cell(1), int_cell(1)},
               {int_cell(3), int_cell(-1), int_cell(-1)}});
}

TEST_CASE("engine: SMALLINT arithmetic overflows at the SMALLINT range") {
  Database db;
  run_script(db, "CREATE TABLE t (s SMALLINT); INSERT INTO t VALUES (32767)");
  expect_execution_error(db, "SELECT s + s FROM t", "out of range");
  // SUM of SMALLINT is BIGINT: 32767 * 3 = 98301 fits.
  run_script(db, "INSERT INTO t VALUES (32767), (32767)");
  expect_rows(run_sql(db, "SELECT SUM(s) FROM t"), {{int_cell(98301)}});
}

TEST_CASE("engine: NULL operands give NULL - not an error") {
  Database db;
  run_script(db, "CREATE TABLE t (x INTEGER, z INTEGER); INSERT INTO t VALUES (NULL, 0)");
  // NULL / 0 is NULL in PostgreSQL: the division is never evaluated on a NULL operand.
  expect_rows(run_sql(db, "SELECT x + 1, x * 0, 1 + x, z + x FROM t"),
              {{null_cell(), null_cell(), null_cell(), null_cell()}});
}

// ---- DECIMAL ----

TEST_CASE("engine: SUM of 0.10 ten thousand times is exactly 1000.00") {
  Database db;
  db.put_table(repeated_table("tenths", Type::decimal(4, 2), 10, 10000));
  // 10000 * 10 cents = 100000 cents, DECIMAL(38,2); AVG exactly 0.100000.
  expect_rows(run_sql(db, "SELECT SUM(x), AVG(x), COUNT(*) FROM tenths"),
              {{decimal_cell(100000, 2), decimal_cell(100000, 6), int_cell(10000)}});
  // The same through SQL INSERT, and 1000.00 compares equal to a literal.
  run_script(db, "CREATE TABLE t (x DECIMAL(4,2))");
  std::string insert = "INSERT INTO t VALUES (0.10)";
  for (int i = 1; i < 10000; ++i) insert += ", (0.10)";
  run_script(db, insert);
  expect_rows(run_sql(db, "SELECT SUM(x) = 1000.00, SUM(x) FROM t"),
              {{bool_cell(true), decimal_cell(100000, 2)}});
}

TEST_CASE("engine: a DECIMAL(38) SUM beyond 38 digits is an error") {
  const int128 nines = test::power_of_ten(38) - 1;  // the largest DECIMAL(38,0)
  Database db;
  // 2 * (10^38 - 1) ~ 2.0e38 is beyond 128 bits (int128 holds up to ~1.7e38).
  db.put_table(repeated_table("big", Type::decimal(38, 0), nines, 2));
  expect_execution_error(db, "SELECT SUM(x) FROM big", "out of range");
  // 6e37 + 6e37 = 1.2e38 fits in 128 bits but not in 38 digits.
  db.put_table(repeated_table("mid", Type::decimal(38, 0), 6 * test::power_of_ten(37), 2));
  expect_execution_error(db, "SELECT SUM(x) FROM mid", "out of range");
  // 38 nines once is fine.
  db.put_table(repeated_table("one", Type::decimal(38, 0), nines, 1));
  expect_rows(run_sql(db, "SELECT SUM(x) FROM one"), {{decimal_cell(nines, 0)}});
}

TEST_CASE("engine: AVG rounds half away from zero at scale 6") {
  Database db;
  run_script(db,
             "CREATE TABLE t (g INTEGER, x INTEGER, d DECIMAL(8,6));"
             "INSERT INTO t VALUES (1, 1, 0), (1, 2, 0.000001), (1, 2, NULL),"
             " (2, -1, 0), (2, -2, -0.000001), (2, -2, NULL)");
  // g 1: (1 + 2 + 2) / 3 = 1.6666666... -> 1.666667; (0 + 0.000001) / 2 = 0.0000005 -> 0.000001
  // g 2: -5 / 3 -> -1.666667; -0.0000005 -> -0.000001 (away from zero, not to even).
  expect_rows(run_sql(db, "SELECT g, AVG(x), AVG(d) FROM t GROUP BY g ORDER BY g"),
              {{int_cell(1), decimal_cell(1666667, 6), decimal_cell(1, 6)},
               {int_cell(2), decimal_cell(-1666667, 6), decimal_cell(-1, 6)}});
}

TEST_CASE("engine: DECIMAL multiplication beyond 38 digits is an error - not a rounding") {
  Database db;
  db.put_table(repeated_table("big", Type::decimal(38, 0), test::power_of_ten(20), 1));
  // 10^20 * 10^20 = 10^40 has 41 digits.
  expect_execution_error(db, "SELECT x * x FROM big", "overflow");
  // 10^20 * 10^17 = 10^37 fits.
  expect_rows(run_sql(db, "SELECT x * 100000000000000000 FROM big"),
              {{decimal_cell(test::power_of_ten(37), 0)}});
}

// ---- sample variance ----

TEST_CASE("engine: VAR_SAMP and STDDEV_SAMP of one row are NULL - of known sets exact") {
  Database db;
  run_script(db,
             "CREATE TABLE t (g INTEGER, x INTEGER, f DOUBLE, d DECIMAL(4,1));"
             "INSERT INTO t VALUES (0, 5, 5, 5.0),"
             " (1, 2, 2, 0.2), (1, 4, 4, 0.4), (1, 4, 4, 0.4), (1, 4, 4, 0.4),"
             " (1, 5, 5, 0.5), (1, 5, 5, 0.5), (1, 7, 7, 0.7), (1, 9, 9, 0.9)");
  // g 1: mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32, VAR_SAMP 32/7; the DECIMAL
  // column holds the same values / 10, so its variance is 32/700.
  const long double var = 32.0L / 7;
  Result r = run_sql(db,
                     "SELECT g, VAR_SAMP(x), STDDEV_SAMP(x), VARIANCE(f), STDDEV(f),"
                     " VAR_SAMP(d), STDDEV_SAMP(d) FROM t GROUP BY g ORDER BY g");
  expect_rows(
      r,
      {{int_cell(0), null_cell(), null_cell(), null_cell(), null_cell(), null_cell(), null_cell()},
       {int_cell(1), double_cell(var), double_cell(std::sqrt(var)), double_cell(var),
        double_cell(std::sqrt(var)), double_cell(var / 100), double_cell(std::sqrt(var) / 10)}});
}

// The one-pass formula (sumsq - sum^2/n) / (n-1) cancels catastrophically when the mean is
// large next to the spread (it gave 0 here); the CPU keeps Welford's (mean, M2) state with
// Chan's combine, and the GPU squares deviations from the final means in a second pass.
TEST_CASE("engine: VAR_SAMP of DOUBLE values with a large mean stays accurate") {
  Database db;
  run_script(db,
             "CREATE TABLE t (f DOUBLE);"
             "INSERT INTO t VALUES (1000000001), (1000000002), (1000000003)");
  // Mean 1000000002, deviations -1, 0, 1: VAR_SAMP (1 + 0 + 1) / 2 = 1, STDDEV_SAMP 1.
  expect_rows(run_sql(db, "SELECT VAR_SAMP(f), STDDEV_SAMP(f) FROM t"),
              {{double_cell(1), double_cell(1)}});
}

// Squares of 10^20 pass 128 bits; the sum of squares is kept in 256 bits, so the variance
// stays exact where doubles (spaced 16,384 apart there) see three equal values.
TEST_CASE("engine: VAR_SAMP stays exact when the squares pass 128 bits") {
  Database db;
  run_script(db,
             "CREATE TABLE t (g INTEGER, d DECIMAL(38,0), e DECIMAL(38,4));"
             "INSERT INTO t VALUES (1, 100000000000000000000, 10000000000000000.0001),"
             " (1, 100000000000000000002, 10000000000000000.0003),"
             " (1, 100000000000000000004, 10000000000000000.0005),"
             " (2, -100000000000000000000, 1), (2, -99999999999999999999, 1)");
  // g 1: deviations -2, 0, 2 -> 8 / 2 = 4; e's are a ten-thousandth of those: 4e-8.
  // g 2: deviations -0.5, 0.5 -> 0.5 / 1.
  expect_rows(
      run_sql(db,
              "SELECT g, VAR_SAMP(d), STDDEV_SAMP(d), VAR_SAMP(e) FROM t GROUP BY g ORDER BY g"),
      {{int_cell(1), double_cell(4), double_cell(2), double_cell(4e-8)},
       {int_cell(2), double_cell(0.5), double_cell(std::sqrt(0.5)), double_cell(0)}});
}

TEST_CASE("engine: COUNT(DISTINCT) ignores NULLs") {
  Database db;
  run_script(db,
             "CREATE TABLE t (g INTEGER, x INTEGER);"
             "INSERT INTO t VALUES (1, 1), (1, 1), (1, NULL), (1, 2), (1, NULL), (2, NULL)");
  expect_rows(run_sql(db, "SELECT g, COUNT(DISTINCT x), COUNT(x) FROM t GROUP BY g ORDER BY g"),
              {{int_cell(1), int_cell(2), int_cell(3)}, {int_cell(2), int_cell(0), int_cell(0)}});
  expect_rows(run_sql(db, "SELECT COUNT(DISTINCT x) FROM t"), {{int_cell(2)}});
  // DISTINCT in SUM/AVG: the distinct non-NULL values are 1 and 2.
  expect_rows(run_sql(db, "SELECT SUM(DISTINCT x), AVG(DISTINCT x), SUM(x) FROM t"),
              {{int_cell(3), decimal_cell(1500000, 6), int_cell(4)}});
}

// ---- HAVING, ORDER BY, LIMIT ----

TEST_CASE("engine: HAVING without GROUP BY filters the single row") {
  Database db;
  run_script(db, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)");
  expect_rows(run_sql(db, "SELECT COUNT(*) FROM t HAVING COUNT(*) > 100"), {});
  expect_rows(run_sql(db, "SELECT COUNT(*), SUM(x) FROM t HAVING SUM(x) = 6"),
              {{int_cell(3), int_cell(6)}});
}

TEST_CASE("engine: ORDER BY with NULLS FIRST and NULLS LAST") {
  Database db;
  run_script(db, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (3), (NULL), (1)");
  auto order = [&](const char* clause) {
    return run_sql(db, std::string("SELECT x FROM t ORDER BY x ") + clause);
  };
  expect_rows(order("ASC NULLS FIRST"), {{null_cell()}, {int_cell(1)}, {int_cell(3)}});
  expect_rows(order("ASC NULLS LAST"), {{int_cell(1)}, {int_cell(3)}, {null_cell()}});
  expect_rows(order("DESC NULLS FIRST"), {{null_cell()}, {int_cell(3)}, {int_cell(1)}});
  expect_rows(order("DESC NULLS LAST"), {{int_cell(3)}, {int_cell(1)}, {null_cell()}});
}

TEST_CASE("engine: LIMIT 0 gives no rows - OFFSET beyond the end gives no rows") {
  Database db;
  run_script(db, "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)");
  expect_rows(run_sql(db, "SELECT x FROM t ORDER BY x LIMIT 0"), {});
  expect_rows(run_sql(db, "SELECT x FROM t ORDER BY x OFFSET 3"), {});
  expect_rows(run_sql(db, "SELECT x FROM t ORDER BY x LIMIT 5 OFFSET 10"), {});
  expect_rows(run_sql(db, "SELECT x, COUNT(*) FROM t GROUP BY x ORDER BY x LIMIT 2 OFFSET 1"),
              {{int_cell(2), int_cell(1)}, {int_cell(3), int_cell(1)}});
}

// ---- determinism across threads ----

// The query of the determinism test: exact aggregates (integers, DECIMAL, MIN/MAX, COUNT
// DISTINCT) that must not depend on how rows are split between threads, and DOUBLE sums
// whose last bits may (the design allows floating-point sums to differ by atomic order).
constexpr const char* kThreadQuery =
    "SELECT col1 % 100 AS k, COUNT(*), SUM(col2), SUM(col4), AVG(col4), VAR_SAMP(col4),"
    " MIN(col3), MAX(col3), COUNT(DISTINCT col2 % 1000), SUM(col3), AVG(col3)"
    " FROM atable WHERE col2 % 7 <> 3 GROUP BY col1 % 100 ORDER BY k";
constexpr size_t kExactColumns = 9;

Result run_with_threads(const Database& db, unsigned threads) {
  std::vector<ast::Statement> statements = parse_script(kThreadQuery);
  REQUIRE(statements.size() == 1);
  BoundSelect query =
      bind_select(std::get<ast::SelectStmt>(statements[0].body), db, statements[0].parameter_count);
  CpuOptions options;
  options.threads = threads;
  options.morsel_rows = 4096;  // about 50 morsels, so that threads interleave
  options.strings = std::make_shared<StringHeap>();
  return run_cpu(query, db.table("atable").get(), {}, options);
}

void expect_same_result(const Result& a, const Result& b) {
  REQUIRE(a.rows.size() == b.rows.size());
  REQUIRE(a.names.size() == 11);
  for (size_t i = 0; i < a.rows.size(); ++i) {
    for (size_t c = 0; c < kExactColumns; ++c) CHECK(a.cell_text(i, c) == b.cell_text(i, c));
    for (size_t c = kExactColumns; c < a.names.size(); ++c) {
      CHECK(test::close_relative(a.rows[i][c].f, b.rows[i][c].f, 1e-12L));
    }
  }
}

TEST_CASE("engine: multi-threaded results are identical across runs and to one thread") {
  Database db;
  db.put_table(generate_atable(200000, 1u << 20, 0, 11));
  Result single = run_with_threads(db, 1);
  CHECK(single.rows.size() == 100);
  for (int run = 0; run < 5; ++run) {
    INFO("run ", run);
    expect_same_result(run_with_threads(db, 8), single);
    expect_same_result(run_sql(db, kThreadQuery), single);
  }
}

}  // namespace
}  // namespace tally
