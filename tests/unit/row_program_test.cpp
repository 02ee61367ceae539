// The interpreted tier's row programs (compiler/codegen/row_program.h) run on the host exactly
// as the interpreter's Scan runs them (templates/tally_interp.cuh, over the device layout of the
// columns), their groups finished as a device run's are (runtime/gpu/interpreted_scan.h), give
// the CPU engine's result; statements the interpreter cannot hold are declined with a reason.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "compiler/bind/binder.h"
#include "compiler/parse/parser.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/gpu/device_layout.h"
#include "runtime/gpu/interpreted_scan.h"
#include "runtime/session/database.h"
#include "runtime/storage/scan_stats.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tests/unit/support/row_program_host.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& test_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.005, 3));
    d->put_table(generate_nulls_table(5000, 0.2, 3));
    d->put_table(generate_atable(140000, 1u << 20, 0, 3));  // more rows than the most groups
    // DECIMAL(38, 2) amounts that fit 64 bits, with NULLs, and a column of wider ones
    test::run_script(*d,
                     "CREATE TABLE wide (k INTEGER, amount DECIMAL(38, 2), big DECIMAL(38, 0)); "
                     "INSERT INTO wide VALUES (1, 12.50, 1), (1, -3.25, 2), (2, NULL, 3), "
                     "(2, 99999999999.99, 4), (3, 0.01, 100000000000000000000000000000)");
    return d;
  }();
  return *db;
}

BoundSelect bind(const std::string& sql) {
  auto statements = parse_script(sql);
  REQUIRE(statements.size() == 1);
  const auto* select = std::get_if<ast::SelectStmt>(&statements[0].body);
  REQUIRE(select != nullptr);
  return bind_select(*select, test_db(), statements[0].parameter_count);
}

std::variant<RowProgram, std::string> program_of(const BoundSelect& q, const Table& table) {
  static const std::vector<Value> no_parameters;
  const std::vector<ColumnStats> stats = scan_stats(q, table);
  return compile_row_program(row_program_inputs(q, table, stats, no_parameters, nullptr));
}

// The program of a statement the interpreter must take.
RowProgram taken_program(const BoundSelect& q, const Table& table) {
  auto program = program_of(q, table);
  if (auto* why = std::get_if<std::string>(&program)) FAIL("declined: " << *why);
  return std::get<RowProgram>(std::move(program));
}

// The interpreter's result for `sql`, run on the host, and the CPU engine's.
std::pair<Result, Result> interpreted_and_cpu(const std::string& sql) {
  const BoundSelect q = bind(sql);
  const TablePtr table = test_db().table(q.table);
  return {test::run_row_program_on_host(taken_program(q, *table), q, *table),
          test::run_sql(test_db(), sql)};
}

void check_matches_cpu(const std::string& sql) {
  INFO(sql);
  const auto [host, cpu] = interpreted_and_cpu(sql);
  CHECK(test::sorted_row_texts(host) == test::sorted_row_texts(cpu));
}

// As check_matches_cpu, where a DOUBLE SUM may add in another order than the CPU engine's.
void check_close_to_cpu(const std::string& sql) {
  INFO(sql);
  const auto [host, cpu] = interpreted_and_cpu(sql);
  CHECK(test::result_difference(cpu, host, test::float_tolerances(cpu)) == "");
}

std::string declined(const std::string& sql) {
  const BoundSelect q = bind(sql);
  auto program = program_of(q, *test_db().table(q.table));
  auto* why = std::get_if<std::string>(&program);
  return why ? *why : std::string();
}

}  // namespace

TEST_CASE("row program: TPC-H shapes run on the host as the interpreter runs them") {
  check_matches_cpu(
      "SELECT l_returnflag, l_linestatus, SUM(l_quantity), SUM(l_extendedprice), "
      "SUM(l_extendedprice * (1 - l_discount)), SUM(l_extendedprice * (1 - l_discount) * (1 + "
      "l_tax)), AVG(l_quantity), AVG(l_discount), COUNT(*) FROM lineitem WHERE l_shipdate <= "
      "DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2");
  check_matches_cpu(
      "SELECT SUM(l_extendedprice * l_discount) FROM lineitem WHERE l_shipdate >= DATE "
      "'1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND "
      "l_quantity < 24");
  check_matches_cpu(
      "SELECT EXTRACT(YEAR FROM l_shipdate) AS y, MIN(l_quantity), MAX(l_extendedprice), "
      "COUNT(l_tax) FROM lineitem GROUP BY y ORDER BY y");
  check_matches_cpu(
      "SELECT l_shipmode, l_returnflag, COUNT(*), STDDEV_SAMP(l_quantity), VAR_SAMP(l_discount) "
      "FROM lineitem WHERE l_shipmode IN ('AIR', 'MAIL') OR l_shipinstruct LIKE '%BACK%' "
      "GROUP BY 1, 2 HAVING COUNT(*) > 10 ORDER BY 3 DESC LIMIT 5");
  check_matches_cpu(
      "SELECT l_orderkey % 100 AS b, CASE WHEN l_quantity > 25 THEN 1 ELSE 0 END AS big, "
      "SUM(l_quantity - 1), COUNT(*) FROM lineitem GROUP BY 1, 2");
  check_matches_cpu(
      "SELECT date_trunc('month', l_shipdate) AS m, COUNT(*) FROM lineitem GROUP BY m");
}

TEST_CASE("row program: NULL keys and values of every integer-like type") {
  check_matches_cpu(
      "SELECT c_smallint, c_boolean, COUNT(*), COUNT(c_integer), SUM(c_bigint), "
      "MIN(c_date), MAX(c_decimal), AVG(c_decimal) FROM nulls GROUP BY 1, 2");
  check_matches_cpu(
      "SELECT c_varchar, c_date, SUM(c_integer * 2 + c_smallint), COUNT(c_boolean) FROM nulls "
      "WHERE c_boolean OR c_integer IS NULL GROUP BY 1, 2");
  check_matches_cpu(
      "SELECT COALESCE(c_integer, -1) AS k, SUM(c_decimal * 3), MIN(c_bigint) FROM nulls WHERE "
      "NOT (c_smallint > 3) OR c_varchar <> 'x' GROUP BY k");
  check_matches_cpu("SELECT COUNT(*), SUM(c_integer) FROM nulls WHERE c_integer > 1000000000");
}

// Integers truncate toward zero; DECIMAL quotients round half away from zero at scale 6 or
// more; negative dividends and divisors; a quotient or a remainder as a group key (its domain from
// compiler/plan/value_bounds.h) and in a filter.
TEST_CASE("row program: division as the CPU engine divides") {
  check_matches_cpu(
      "SELECT l_orderkey % 7 - 3 AS k, SUM(l_orderkey / (l_linenumber - 8)), "
      "SUM((l_partkey - 100000) / 7), MIN(l_quantity / 7), MAX(l_extendedprice / -3), "
      "SUM(l_discount / 0.03), AVG(l_tax / l_linenumber) FROM lineitem GROUP BY k");
  check_matches_cpu(
      "SELECT l_quantity / 4 AS q, COUNT(*), SUM(l_extendedprice / 1.5) FROM lineitem WHERE "
      "l_extendedprice / l_quantity > 1500 GROUP BY q");
  check_matches_cpu(
      "SELECT c_smallint / 2 AS h, COUNT(*), SUM(c_decimal / 3), SUM(c_integer / -4) FROM "
      "nulls GROUP BY h");
  // a DECIMAL remainder: both operands raised to its scale, the sign the dividend's
  check_matches_cpu(
      "SELECT l_extendedprice % 9 AS r, COUNT(*), SUM(l_discount % 0.03), "
      "MIN((l_quantity - 25) % 7.5) FROM lineitem GROUP BY r");
}

// Half away from zero, to places kept, added and taken away, of DECIMALs and integers, as a
// value, a group key and a filter's operand.
TEST_CASE("row program: ROUND as the CPU engine rounds") {
  check_matches_cpu(
      "SELECT ROUND(l_discount, 1) AS d, SUM(ROUND(l_extendedprice)), "
      "SUM(ROUND(l_extendedprice - 50000, -2)), MIN(ROUND(l_tax, 4)), "
      "MAX(ROUND(l_partkey - 100000, -3)), SUM(ROUND(l_quantity * l_discount, 1)) "
      "FROM lineitem GROUP BY d");
  check_matches_cpu(
      "SELECT ROUND(c_decimal, 0) AS r, COUNT(*), SUM(ROUND(c_integer, -1)) FROM nulls "
      "WHERE ROUND(c_smallint, -1) <> 10 GROUP BY r");
}

TEST_CASE("row program: a DATE plus an interval as the CPU engine adds it") {
  // months first, the day clamped to the month's end (Jan 31 + 1 month is Feb 28 or 29)
  check_matches_cpu(
      "SELECT l_shipdate + INTERVAL '1 month' AS d, COUNT(*), MIN(l_commitdate - INTERVAL '2 "
      "years 3 days'), MAX(l_receiptdate + INTERVAL '-13 months 40 days') FROM lineitem WHERE "
      "l_shipdate + INTERVAL '3 months' < DATE '1995-03-31' GROUP BY 1");
  check_matches_cpu(
      "SELECT EXTRACT(MONTH FROM c_date + INTERVAL '11 months') AS m, COUNT(c_date), "
      "MIN(c_date + INTERVAL '1 day') FROM nulls GROUP BY 1");
  check_matches_cpu(
      "SELECT date_trunc('month', l_shipdate - INTERVAL '1 month') AS m, SUM(l_quantity) FROM "
      "lineitem GROUP BY 1");
}

// A DISTINCT aggregate's values go to a set the host reads back, whatever the aggregate:
// beside plain ones, of strings (ids of a domain), DECIMALs, dates and booleans, over computed
// values, NULL values and groups, and over no rows.
TEST_CASE("row program: DISTINCT aggregates as the CPU engine computes them") {
  check_matches_cpu(
      "SELECT l_linestatus, COUNT(DISTINCT l_suppkey), COUNT(DISTINCT l_shipmode), COUNT(*) "
      "FROM lineitem GROUP BY 1");
  check_matches_cpu(
      "SELECT COUNT(DISTINCT l_quantity), SUM(DISTINCT l_quantity), AVG(DISTINCT l_discount), "
      "SUM(l_quantity), MIN(DISTINCT l_shipdate), MAX(DISTINCT l_shipmode), "
      "VAR_SAMP(l_tax) FROM lineitem WHERE l_quantity < 30");
  check_matches_cpu(
      "SELECT c_boolean, COUNT(DISTINCT c_integer), SUM(DISTINCT c_decimal), "
      "COUNT(DISTINCT c_varchar), COUNT(DISTINCT c_boolean), AVG(DISTINCT c_smallint), "
      "COUNT(DISTINCT c_date), COUNT(c_date) FROM nulls GROUP BY 1");
  check_matches_cpu(
      "SELECT l_orderkey % 5 AS k, COUNT(DISTINCT l_partkey % 13), "
      "SUM(DISTINCT l_linenumber * 2), COUNT(DISTINCT CASE WHEN l_quantity > 40 THEN 'big' "
      "END) FROM lineitem GROUP BY k");
  check_matches_cpu(
      "SELECT COUNT(DISTINCT c_integer), SUM(DISTINCT c_bigint) FROM nulls WHERE "
      "c_integer > 1000000000");
}

// DOUBLE and REAL columns, constants and casts into them, each operation the CPU engine's:
// as sums, averages, MIN and MAX (NULLs, negative zero and SQL's order), in filters, CASE and
// COALESCE, and a REAL rounded where a cast makes one.
TEST_CASE("row program: DOUBLE and REAL values as the CPU engine computes them") {
  check_close_to_cpu(
      "SELECT c_smallint, SUM(c_double), AVG(c_real), MIN(c_double * -1.5), MAX(c_real + 0.1), "
      "COUNT(c_double), SUM(c_double / 3.0 - c_real) FROM nulls GROUP BY 1");
  check_close_to_cpu(
      "SELECT c_boolean, MIN(ABS(c_double) - 0.0), MAX(-c_real), SUM(ROUND(c_double * 7.3, 1)), "
      "SUM(CAST(c_decimal AS DOUBLE) * 1.1), MAX(CAST(c_integer AS REAL) / 7), "
      "MIN(CAST(c_double * 3.3 AS REAL)) FROM nulls WHERE c_double > 2.5 OR c_real IS NULL "
      "GROUP BY 1");
  check_close_to_cpu(
      "SELECT l_returnflag, SUM(CAST(l_extendedprice AS DOUBLE) * (1 - CAST(l_discount AS "
      "DOUBLE))), AVG(CAST(l_quantity AS DOUBLE)), MAX(CASE WHEN l_tax > 0.04 THEN "
      "CAST(l_tax AS DOUBLE) ELSE -1.0 END), MIN(COALESCE(CAST(l_partkey AS DOUBLE) / "
      "l_linenumber, 0.5)) FROM lineitem WHERE CAST(l_discount AS DOUBLE) BETWEEN 0.02 AND "
      "0.06 GROUP BY 1");
  check_close_to_cpu(
      "SELECT col1 % 10 AS k, SUM(col3), MIN(col3), MAX(MOD(col3, 7.5)), COUNT(*) FROM "
      "atable WHERE col3 < 400 GROUP BY k");
  // DISTINCT doubles: -0.0 and 0.0 are one value, as every NaN is.
  check_close_to_cpu(
      "SELECT c_smallint, COUNT(DISTINCT CASE WHEN c_integer > 4000 THEN -c_double ELSE "
      "c_double END), COUNT(DISTINCT c_double * 1e308 * 10 - c_double * 1e308 * 10), "
      "SUM(DISTINCT c_real), AVG(DISTINCT c_double / 3), MIN(DISTINCT -c_double) FROM nulls "
      "GROUP BY 1");
  // Infinity less Infinity is NaN, above every number: MIN keeps 0, MAX the NaN.
  check_matches_cpu(
      "SELECT c_smallint, MIN(c_double * 1e308 * 10 - c_double * 1e308 * 10), "
      "MAX(c_double * 1e308 * 10 - c_double * 1e308 * 10), MAX(-c_double) FROM nulls "
      "WHERE c_double = 0 OR c_integer > 5000 GROUP BY 1");
}

// A 16-byte DECIMAL column whose values all fit 64 bits reads as its low words: as a value,
// a key, in a filter and in arithmetic; COUNT ... FILTER as its condition's count.
TEST_CASE("row program: DECIMAL(38) columns of 64-bit values and COUNT FILTER") {
  check_matches_cpu(
      "SELECT k, SUM(amount), MIN(amount), MAX(amount * 3), AVG(amount), COUNT(amount), "
      "COUNT(*) FILTER (WHERE amount > 0), COUNT(amount) FILTER (WHERE k > 1) FROM wide "
      "GROUP BY k");
  check_matches_cpu(
      "SELECT amount, COUNT(*), SUM(k) FROM wide WHERE amount < 100 OR amount IS NULL GROUP BY 1");
  check_matches_cpu(
      "SELECT l_returnflag, COUNT(*) FILTER (WHERE l_quantity > 30), COUNT(l_tax) FILTER "
      "(WHERE l_shipmode = 'AIR'), SUM(l_quantity) FILTER (WHERE l_discount < 0.05) FROM "
      "lineitem GROUP BY 1");
  CHECK(declined("SELECT SUM(big) FROM wide").find("past 64 bits") != std::string::npos);
}

// ARG_MIN / ARG_MAX as one 128-bit pair word a group (templates/tally_arg_pair.cuh): keys and
// values of integers, DECIMALs, dates and doubles, ties on the key settled by the least value,
// rows with either argument NULL skipped.
TEST_CASE("row program: ARG_MIN and ARG_MAX as the CPU engine keeps them") {
  check_matches_cpu(
      "SELECT c_boolean, ARG_MIN(c_integer, c_smallint), ARG_MAX(c_decimal, c_date), "
      "ARG_MIN(c_double, c_integer), ARG_MAX(c_date, c_real), ARG_MIN(c_bigint, -c_double) "
      "FROM nulls GROUP BY 1");
  check_matches_cpu(
      "SELECT l_returnflag, ARG_MAX(l_orderkey, l_extendedprice), ARG_MIN(l_shipdate, "
      "l_quantity), MAX_BY(l_discount, l_orderkey % 7) FROM lineitem GROUP BY 1");
  CHECK(declined("SELECT ARG_MIN(c_varchar, c_integer) FROM nulls").find("strings") !=
        std::string::npos);
}

// Whether the interpreter's run of `sql` on the host stops at a row that divides by zero,
// which takes a device run to the statement's own kernels.
bool faults(const std::string& sql) {
  const BoundSelect q = bind(sql);
  const TablePtr table = test_db().table(q.table);
  const RowProgram program = taken_program(q, *table);
  CHECK(program.faults);
  bool faulted = false;
  test::run_row_program_on_host(program, q, *table, {}, std::make_shared<StringHeap>(), &faulted);
  return faulted;
}

TEST_CASE("row program: a divisor that may be 0 stops the run only where the CPU engine raises") {
  // l_discount and c_integer hold zeros. Where the CPU engine divides a row by one, the run
  // stops (the statement's own kernels raise the error); a row it never divides does not stop
  // it: a CASE branch not taken, a COALESCE argument not reached, AND and OR decided by their
  // first operand, a row the filter drops.
  for (const char* sql :
       {"SELECT SUM(l_quantity / l_discount) FROM lineitem",
        "SELECT l_returnflag, COUNT(*) FROM lineitem WHERE l_linenumber % (l_linenumber - 1) = 0 "
        "GROUP BY 1",
        "SELECT COUNT(*) FROM lineitem WHERE l_quantity / l_discount > 500 OR l_discount = 0",
        "SELECT SUM(c_double / c_integer) FROM nulls"}) {
    INFO(sql);
    CHECK(faults(sql));
    ExecOptions cpu;
    cpu.device = DeviceChoice::Cpu;
    const test::RunOutcome expected = test::run_outcome(test_db(), sql, cpu);
    CHECK_FALSE(expected.ok);
    CHECK(expected.error.find("division by zero") != std::string::npos);
  }
  for (const char* sql :
       {"SELECT SUM(CASE WHEN l_discount > 0 THEN l_quantity / l_discount END) FROM lineitem",
        "SELECT l_returnflag, SUM(l_quantity / l_discount) FROM lineitem WHERE l_discount > 0 "
        "GROUP BY 1",
        "SELECT COUNT(*) FROM lineitem WHERE l_discount = 0 OR l_quantity / l_discount > 500",
        "SELECT COUNT(*) FROM lineitem WHERE l_discount <> 0 AND l_quantity / l_discount > 500",
        "SELECT SUM(COALESCE(CASE WHEN l_discount = 0 THEN l_quantity END, l_quantity / "
        "l_discount)) FROM lineitem",
        "SELECT l_linenumber % 3, MAX(l_orderkey % (l_linenumber - 1)) FROM lineitem WHERE "
        "l_linenumber > 1 GROUP BY 1"}) {
    INFO(sql);
    CHECK_FALSE(faults(sql));
    check_matches_cpu(sql);
  }
  CHECK_FALSE(
      faults("SELECT SUM(CASE WHEN c_integer <> 0 THEN c_double / c_integer END) FROM nulls"));
  check_close_to_cpu(
      "SELECT SUM(CASE WHEN c_integer <> 0 THEN c_double / c_integer END) FROM nulls");
}

TEST_CASE("row program: statements the interpreter cannot hold are declined with a reason") {
  CHECK(declined("SELECT c_varchar, VAR_SAMP(c_double) FROM nulls GROUP BY 1")
            .find("does not merge") != std::string::npos);
  CHECK(declined("SELECT SUM(CAST(c_bigint * 1000000 AS REAL)) FROM nulls").find("2^53") !=
        std::string::npos);
  CHECK(declined("SELECT l_partkey FROM lineitem LIMIT 3").find("aggregations only") !=
        std::string::npos);
  // A string built from a number has no bounded domain of strings.
  CHECK(declined("SELECT CAST(l_quantity AS VARCHAR), COUNT(*) FROM lineitem GROUP BY 1")
            .find("string expression") != std::string::npos);
  CHECK(declined("SELECT STRING_AGG(l_shipmode, ',') FROM lineitem").find("takes the generated") !=
        std::string::npos);
}

TEST_CASE("row program: --explain says whether the interpreted tier takes a statement") {
  const auto describe = [](const std::string& sql) {
    const BoundSelect q = bind(sql);
    const TablePtr table = test_db().table(q.table);
    StringHeap strings;
    return describe_interpreted(q, *table, scan_stats(q, *table), {}, strings);
  };
  const std::string taken = describe(
      "SELECT CASE WHEN l_quantity < 10 THEN 'small' ELSE 'large' END, COUNT(*) FROM lineitem "
      "GROUP BY 1");
  CHECK(taken.find("interpreted tier: runs it until its own kernels are compiled (") == 0);
  CHECK(taken.find("at most 3 groups") != std::string::npos);  // two strings and NULL's digit
  const std::string string_agg = "SELECT STRING_AGG(l_shipmode, ',') FROM lineitem";
  CHECK(describe(string_agg) ==
        fmt::format("interpreted tier: declines it ({})\n", declined(string_agg)));
  if (!cuda::nvrtc_available()) return;
  ExecOptions options;
  options.compile_only = true;
  options.explain = true;
  std::string explain;
  test_db().execute_script("SELECT l_returnflag, SUM(l_quantity) FROM lineitem GROUP BY 1", options,
                           [&](const StatementOutcome& o) { explain = o.explain; });
  CHECK(explain.find("interpreted tier: runs it") != std::string::npos);
}

TEST_CASE("row program: computed string keys and string MIN and MAX run as domain ids") {
  // queries/quantity_buckets.sql: constants picked by a condition over a number
  check_matches_cpu(
      "SELECT CASE WHEN l_quantity < 10 THEN 'small' WHEN l_quantity < 30 THEN 'medium' ELSE "
      "'large' END AS size, COUNT(*) AS n, SUM(CASE WHEN l_returnflag = 'R' THEN 1 ELSE 0 END) "
      "FROM lineitem GROUP BY 1 ORDER BY 1");
  // a function of one column, and a column or a constant by a condition over another
  check_matches_cpu(
      "SELECT UPPER(l_shipmode) AS m, LOWER(l_returnflag) AS f, COUNT(*) FROM lineitem "
      "GROUP BY 1, 2");
  check_matches_cpu(
      "SELECT CASE WHEN l_quantity > 40 THEN l_shipmode ELSE 'other' END AS m, "
      "COALESCE(CASE WHEN l_linenumber > 3 THEN l_returnflag END, 'none') AS x, COUNT(*) "
      "FROM lineitem GROUP BY 1, 2");
  // queries/expressions.sql: MIN and MAX of strings order by the strings, not by codes
  check_matches_cpu(
      "SELECT l_linenumber % 3 AS bucket, COALESCE(MAX(l_comment), 'none'), MIN(l_comment), "
      "MIN(l_shipinstruct), MAX(UPPER(l_shipmode)), COUNT(l_comment) FROM lineitem WHERE "
      "l_linenumber <> 4 GROUP BY l_linenumber % 3 ORDER BY bucket");
  // NULL strings: a NULL key, and a MIN over only NULLs
  check_matches_cpu(
      "SELECT c_varchar, MIN(c_varchar), MAX(CASE WHEN c_integer > 0 THEN c_varchar END), "
      "COUNT(c_varchar) FROM nulls GROUP BY 1");
}

}  // namespace tally

namespace tally {

TEST_CASE("row program: a large domain keeps its first groups under ORDER BY ... LIMIT") {
  // atable: 140,000 rows over 2^20 keys, more groups than the host finishes.
  const std::vector<std::string> statements = {
      "SELECT col1, COUNT(*), SUM(col2) FROM atable GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT 10",
      // COUNT(*) ties over thousands of groups; the second key breaks them
      "SELECT col1, COUNT(*) AS n FROM atable GROUP BY 1 ORDER BY n DESC, col1 LIMIT 7",
      "SELECT col1 % 200000 AS k, MIN(col2) FROM atable GROUP BY 1 ORDER BY 1 DESC LIMIT 5 "
      "OFFSET 3",
      // an aggregate NULL where no row of the group passes the CASE, and a NULL key
      "SELECT col1, MAX(CASE WHEN col2 % 3 = 0 THEN col2 END) AS m FROM atable GROUP BY 1 "
      "ORDER BY m NULLS FIRST, col1 LIMIT 6",
      "SELECT CASE WHEN col1 % 7 = 0 THEN NULL ELSE col1 END AS k, COUNT(*) FROM atable "
      "GROUP BY 1 ORDER BY 1 DESC NULLS FIRST LIMIT 4",
      "SELECT col1, MIN(col2) AS m FROM atable GROUP BY 1 ORDER BY m, col1 LIMIT 0",
  };
  for (const std::string& sql : statements) {
    INFO(sql);
    const BoundSelect q = bind(sql);
    const TablePtr table = test_db().table(q.table);
    const RowProgram program = taken_program(q, *table);
    CHECK(program.selects_top);
    const Result host = test::run_row_program_on_host(program, q, *table);
    CHECK(test::row_texts(host) == test::row_texts(test::run_sql(test_db(), sql)));
  }
  // The rest of a large domain's statements keep every group where the run makes few enough:
  // a filter, and statements whose first ORDER BY key (AVG) or HAVING the device cannot select by.
  const std::vector<std::string> every_group = {
      "SELECT col1, COUNT(*), SUM(col2) FROM atable WHERE col2 < 5000 GROUP BY 1",
      "SELECT col1, AVG(col2) FROM atable WHERE col2 < 9000 GROUP BY 1 ORDER BY 2, 1 LIMIT 3",
      "SELECT col1, COUNT(*) FROM atable GROUP BY 1 HAVING COUNT(*) > 1 ORDER BY 1 LIMIT 3",
  };
  for (const std::string& sql : every_group) {
    INFO(sql);
    const BoundSelect q = bind(sql);
    const RowProgram program = taken_program(q, *test_db().table(q.table));
    CHECK(program.large);
    CHECK_FALSE(program.selects_top);
    check_matches_cpu(sql);
  }
}

TEST_CASE("row program: the interpreter's kernels compile with NVRTC") {
  if (!cuda::nvrtc_available()) return;
  const cuda::CompiledKernel k = cuda::compile_cuda(interpreter_source(), "tally_interp.cu");
  CHECK(!k.image.empty());
  MESSAGE("interpreter NVRTC " << k.compile_ms << " ms, " << k.image.size() << " bytes");
}

}  // namespace tally
