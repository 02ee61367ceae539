// The interpreted tier on a GPU (runtime/gpu/interpreted_scan.h): statements it takes give the
// CPU engine's result, over few groups (a block's shared table), many (the global hash table)
// and none (one global group), NULL keys included; a new statement runs on it at once and,
// once its own kernels have compiled in the background, on those.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/query_files.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

bool interpreted(const StatementOutcome& o) { return o.timings.gpu.rfind("interpreted", 0) == 0; }

ExecOptions gpu_options(const std::string& interpreted_kernels) {
  ExecOptions options;
  options.device = DeviceChoice::Gpu;
  options.interpreted_kernels = interpreted_kernels;
  return options;
}

// `sql` runs on the interpreter on the GPU and gives the CPU engine's rows (`in_order`: in the
// same order, else as a set).
void check_interpreted(Database& db, const std::string& sql, bool in_order) {
  INFO(sql);
  const Result cpu = test::run_sql(db, sql);
  const StatementOutcome gpu = test::last_outcome(db, sql, gpu_options("always"));
  INFO(gpu.timings.gpu);
  CHECK(interpreted(gpu));
  CHECK(gpu.result->device.rfind("gpu", 0) == 0);
  if (in_order) {
    CHECK(test::row_texts(*gpu.result) == test::row_texts(cpu));
  } else {
    CHECK(test::sorted_row_texts(*gpu.result) == test::sorted_row_texts(cpu));
  }
}

}  // namespace

TEST_CASE("gpu interpreter: the statements it takes match the CPU engine") {
  Database db;
  db.put_table(generate_lineitem(0.05, 5));
  db.put_table(generate_nulls_table(100000, 0.2, 5));
  const std::vector<std::string> statements = {
      // few groups: a block's table in shared memory
      "SELECT l_returnflag, l_linestatus, SUM(l_quantity), SUM(l_extendedprice * (1 - "
      "l_discount) * (1 + l_tax)), AVG(l_discount), COUNT(*) FROM lineitem WHERE l_shipdate <= "
      "DATE '1998-09-02' GROUP BY 1, 2",
      // one group
      "SELECT SUM(l_extendedprice * l_discount), COUNT(*), MIN(l_shipdate) FROM lineitem WHERE "
      "l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24",
      // many groups: the global hash table
      "SELECT l_orderkey % 50000 AS o, SUM(l_quantity), MAX(l_extendedprice), COUNT(*) FROM "
      "lineitem GROUP BY 1",
      "SELECT l_partkey % 1000 AS p, l_shipmode, VAR_SAMP(l_quantity), COUNT(*) FROM lineitem "
      "WHERE l_shipinstruct LIKE '%BACK%' OR l_shipmode IN ('AIR', 'RAIL') GROUP BY 1, 2",
      "SELECT EXTRACT(YEAR FROM l_shipdate) AS y, date_trunc('month', l_commitdate) AS m, "
      "COUNT(*), SUM(CASE WHEN l_quantity > 25 THEN l_extendedprice ELSE 0 END) FROM lineitem "
      "GROUP BY 1, 2",
      // NULL keys and values
      "SELECT c_smallint, c_boolean, c_varchar, COUNT(*), COUNT(c_integer), SUM(c_bigint), "
      "MIN(c_date), MAX(c_decimal), AVG(c_decimal) FROM nulls GROUP BY 1, 2, 3",
      "SELECT COALESCE(c_integer, -1) AS k, c_date, SUM(c_decimal * 3), MIN(c_bigint) FROM nulls "
      "WHERE NOT (c_smallint > 3) OR c_varchar <> 'x' GROUP BY 1, 2",
      // computed string keys and string MIN / MAX: ids of sorted string domains
      "SELECT CASE WHEN l_quantity < 10 THEN 'small' WHEN l_quantity < 30 THEN 'medium' ELSE "
      "'large' END AS size, UPPER(l_shipmode) AS m, COUNT(*), MIN(l_comment), "
      "MAX(l_shipinstruct) FROM lineitem GROUP BY 1, 2",
      "SELECT c_varchar, MAX(CASE WHEN c_integer > 0 THEN c_varchar END), COUNT(c_varchar) FROM "
      "nulls GROUP BY 1",
      // a DATE plus months (the day clamped to the month's end) and days
      "SELECT l_shipdate + INTERVAL '1 month' AS d, COUNT(*), MIN(l_commitdate - INTERVAL '2 "
      "years 3 days') FROM lineitem WHERE l_shipdate + INTERVAL '3 months' < DATE '1995-03-31' "
      "GROUP BY 1",
      // division (integers truncated, DECIMALs rounded half away from zero) and ROUND
      "SELECT l_partkey / 1000 AS q, SUM(l_extendedprice / 3), SUM((l_partkey - 100000) / 9), "
      "MIN(l_discount / 0.03), COUNT(*) FROM lineitem WHERE l_extendedprice / l_quantity > 1200 "
      "GROUP BY 1",
      "SELECT ROUND(l_discount, 1) AS d, SUM(ROUND(l_extendedprice - 50000, -2)), "
      "MAX(ROUND(l_tax * l_quantity, 1)), SUM(ROUND(l_orderkey, -1)) FROM lineitem GROUP BY 1",
      // DISTINCT aggregates: the set on the device, over few groups and many, NULLs included
      "SELECT l_linestatus, COUNT(DISTINCT l_suppkey), COUNT(DISTINCT l_shipmode), COUNT(*) "
      "FROM lineitem GROUP BY 1",
      "SELECT l_orderkey % 5000 AS o, COUNT(DISTINCT l_partkey), SUM(DISTINCT l_quantity), "
      "AVG(DISTINCT l_discount), MAX(DISTINCT l_shipinstruct), COUNT(*) FROM lineitem GROUP BY 1",
      "SELECT c_boolean, COUNT(DISTINCT c_integer), SUM(DISTINCT c_decimal), "
      "COUNT(DISTINCT c_varchar), MIN(DISTINCT c_date), SUM(c_bigint) FROM nulls GROUP BY 1",
  };
  for (const std::string& sql : statements) check_interpreted(db, sql, false);
}

// DOUBLE and REAL values: each row's value is the CPU engine's to the bit (one IEEE operation
// an instruction), the sums add in another order; over a block's shared table and the global
// one, with NULLs, NaN (above every number for MIN and MAX) and REAL columns and casts; and
// ARG_MIN / ARG_MAX over them and over integers, DECIMALs and dates.
TEST_CASE("gpu interpreter: DOUBLE and REAL values and ARG_MIN and ARG_MAX match the CPU engine") {
  Database db;
  db.put_table(generate_lineitem(0.05, 13));
  db.put_table(generate_nulls_table(100000, 0.2, 13));
  db.put_table(generate_atable(1u << 20, 1u << 16, 0, 13));
  const std::vector<std::string> statements = {
      "SELECT c_smallint, SUM(c_double), AVG(c_real), MIN(c_double * -1.5), MAX(c_real + 0.1), "
      "COUNT(c_double), SUM(c_double / 3.0 - c_real) FROM nulls GROUP BY 1",
      "SELECT c_boolean, MIN(c_double * 1e308 * 10 - c_double * 1e308 * 10), "
      "MAX(c_double * 1e308 * 10 - c_double * 1e308 * 10), SUM(ROUND(c_double * 7.3, 1)), "
      "MAX(CAST(c_integer AS REAL) / 7), MIN(CAST(c_double * 3.3 AS REAL)) FROM nulls WHERE "
      "c_double > 0.5 OR c_real IS NULL GROUP BY 1",
      "SELECT l_returnflag, SUM(CAST(l_extendedprice AS DOUBLE) * (1 - CAST(l_discount AS "
      "DOUBLE))), AVG(CAST(l_quantity AS DOUBLE)), MIN(COALESCE(CAST(l_partkey AS DOUBLE) / "
      "l_linenumber, 0.5)) FROM lineitem WHERE CAST(l_discount AS DOUBLE) BETWEEN 0.02 AND "
      "0.06 GROUP BY 1",
      "SELECT col1 % 5000 AS k, SUM(col3), MIN(col3), MAX(MOD(col3, 7.5)), COUNT(*) FROM "
      "atable WHERE col3 < 900 GROUP BY k",
      "SELECT SUM(col3 * col3), MAX(-col3), COUNT(*) FROM atable",
      // DISTINCT doubles: -0.0 and 0.0 one value, every NaN one
      "SELECT c_smallint, COUNT(DISTINCT CASE WHEN c_integer > 4000 THEN -c_double ELSE "
      "c_double END), COUNT(DISTINCT c_double * 1e308 * 10 - c_double * 1e308 * 10), "
      "SUM(DISTINCT c_real), AVG(DISTINCT c_double / 3) FROM nulls GROUP BY 1",
      // ARG_MIN / ARG_MAX: one 128-bit pair word a group, ties settled by the least value
      "SELECT c_boolean, ARG_MIN(c_integer, c_smallint), ARG_MAX(c_decimal, c_date), "
      "ARG_MIN(c_double, c_integer), ARG_MAX(c_date, c_real) FROM nulls GROUP BY 1",
      "SELECT col1 % 3000 AS k, ARG_MAX(col2, col3), ARG_MIN(col3, col4) FROM atable GROUP BY k",
  };
  for (const std::string& sql : statements) {
    INFO(sql);
    const Result cpu = test::run_sql(db, sql);
    const StatementOutcome gpu = test::last_outcome(db, sql, gpu_options("always"));
    INFO(gpu.timings.gpu);
    CHECK(interpreted(gpu));
    CHECK(test::result_difference(cpu, *gpu.result, test::gpu_tolerances(cpu)) == "");
  }
}

// A DECIMAL(38, 2) column whose values fit 64 bits reads as its 16-byte values' low words;
// COUNT ... FILTER counts its condition.
TEST_CASE("gpu interpreter: DECIMAL(38) columns of 64-bit values and COUNT FILTER") {
  Database db;
  db.put_table(generate_lineitem(0.05, 17));
  test::run_script(db,
                   "CREATE TABLE wide AS SELECT l_orderkey % 100 AS k, CAST(CASE WHEN l_tax > "
                   "0.07 THEN NULL ELSE l_extendedprice - 50000 END AS DECIMAL(38, 2)) AS amount "
                   "FROM lineitem");
  const std::vector<std::string> statements = {
      "SELECT k, SUM(amount), MIN(amount), MAX(amount * 3), AVG(amount), COUNT(amount), "
      "COUNT(*) FILTER (WHERE amount > 0) FROM wide GROUP BY k",
      "SELECT SUM(amount), COUNT(amount) FILTER (WHERE k > 50) FROM wide WHERE amount < 1000",
      "SELECT l_returnflag, COUNT(*) FILTER (WHERE l_quantity > 30), SUM(l_quantity) FILTER "
      "(WHERE l_discount < 0.05) FROM lineitem GROUP BY 1",
  };
  for (const std::string& sql : statements) check_interpreted(db, sql, false);
}

// A first table of 256 slots for 300 groups and a DISTINCT set of 256 entries for up to 2,100
// (group, line number) pairs: both fill, grow (the table twice, the set four times larger)
// and the Scan runs again.
TEST_CASE("gpu interpreter: a full table or DISTINCT set grows and the Scan runs again") {
  Database db;
  db.put_table(generate_lineitem(0.01, 7));
  const std::string sql =
      "SELECT l_partkey % 300 AS p, COUNT(DISTINCT l_linenumber), SUM(DISTINCT l_linenumber), "
      "COUNT(*) FROM lineitem GROUP BY 1";
  const Result cpu = test::run_sql(db, sql);
  ExecOptions options = gpu_options("always");
  options.hash_capacity = 256;
  const StatementOutcome gpu = test::last_outcome(db, sql, options);
  INFO(gpu.timings.gpu);
  CHECK(interpreted(gpu));
  CHECK(gpu.timings.gpu.find("the interpreter's table filled up and grew") != std::string::npos);
  CHECK(gpu.timings.gpu.find("the interpreter's DISTINCT set filled up and grew") !=
        std::string::npos);
  CHECK(test::sorted_row_texts(*gpu.result) == test::sorted_row_texts(cpu));
}

TEST_CASE("gpu interpreter: a divisor that may be 0 raises where the CPU engine raises") {
  Database db;
  db.put_table(generate_lineitem(0.01, 7));
  // l_discount holds zeros, by which the CPU engine divides none of these statements' rows.
  for (const char* sql :
       {"SELECT l_returnflag, SUM(CASE WHEN l_discount > 0 THEN l_quantity / l_discount END) FROM "
        "lineitem GROUP BY 1",
        "SELECT COUNT(*), SUM(l_quantity / l_discount) FROM lineitem WHERE l_discount > 0",
        "SELECT l_linestatus, COUNT(*) FROM lineitem WHERE l_discount = 0 OR l_quantity / "
        "l_discount > 500 GROUP BY 1"}) {
    check_interpreted(db, sql, false);
  }
  // A row divided by zero: the statement's own kernels raise the CPU engine's error.
  const std::string sql =
      "SELECT l_returnflag, SUM(l_quantity / l_discount) FROM lineitem GROUP BY 1";
  ExecOptions cpu;
  cpu.device = DeviceChoice::Cpu;
  const test::RunOutcome expected = test::run_outcome(db, sql, cpu);
  const test::RunOutcome gpu = test::run_outcome(db, sql, gpu_options("always"));
  CHECK_FALSE(expected.ok);
  CHECK_FALSE(gpu.ok);
  CHECK(gpu.error_kind == expected.error_kind);
  CHECK(gpu.error.find("division by zero") != std::string::npos);
}

// More possible groups than the host finishes: under ORDER BY ... LIMIT the device ranks them
// by the first ORDER BY key and copies out only those at or before the k-th; otherwise it copies
// out every group where the run made few enough (interpreted_top.h).
TEST_CASE("gpu interpreter: a large domain leaves only its first groups or a filter's few") {
  Database db;
  db.put_table(generate_lineitem(0.05, 5));                 // 300,000 possible orders
  db.put_table(generate_atable(1u << 20, 1u << 22, 0, 5));  // 2^22 possible keys
  const std::vector<std::string> statements = {
      "SELECT l_orderkey, SUM(l_extendedprice) AS total, COUNT(*) AS lines FROM lineitem "
      "GROUP BY l_orderkey ORDER BY total DESC, l_orderkey LIMIT 10",
      // thousands of orders tie on 7 lines; the second key breaks them on the host
      "SELECT l_orderkey, COUNT(*) AS n FROM lineitem GROUP BY 1 ORDER BY n DESC, 1 LIMIT 5",
      "SELECT col1, MIN(col2), MAX(col2) FROM atable GROUP BY 1 ORDER BY 1 DESC LIMIT 5 OFFSET 2",
      // NULL where each of a group's values is a multiple of 50 (about 20,000 groups)
      "SELECT col1, MAX(CASE WHEN col2 % 50 <> 0 THEN col2 END) AS m FROM atable GROUP BY 1 "
      "ORDER BY m NULLS FIRST, col1 LIMIT 6",
      "SELECT CASE WHEN col1 % 7 = 0 THEN NULL ELSE col1 END AS k, COUNT(*) FROM atable "
      "GROUP BY 1 ORDER BY 1 DESC NULLS FIRST LIMIT 4",
      "SELECT col1, SUM(col2) AS s FROM atable WHERE col2 < 0 GROUP BY 1 ORDER BY s LIMIT 3",
  };
  for (const std::string& sql : statements) check_interpreted(db, sql, true);
  // Without ORDER BY ... LIMIT every group comes out where the run made few enough (a filter
  // keeps about 21,000 rows).
  check_interpreted(
      db, "SELECT col1, COUNT(*), SUM(col2) FROM atable WHERE col2 < 20000 GROUP BY 1", false);
  // About 800,000 keys hold one row each: the first ORDER BY key ties over more groups than
  // the host finishes; and about 930,000 groups are more than it finishes. Both statements
  // take their own kernels.
  const std::vector<std::pair<std::string, std::string>> declined = {
      {"SELECT col1, COUNT(*) AS n FROM atable GROUP BY 1 ORDER BY n, 1 LIMIT 3",
       "ties over more groups"},
      {"SELECT col1, COUNT(*) FROM atable GROUP BY 1 ORDER BY 1", "more than the host finishes"},
  };
  for (const auto& [sql, why] : declined) {
    INFO(sql);
    const StatementOutcome gpu = test::last_outcome(db, sql, gpu_options("always"));
    INFO(gpu.timings.gpu);
    CHECK_FALSE(interpreted(gpu));
    CHECK(gpu.timings.gpu.find(why) != std::string::npos);
    CHECK(test::row_texts(*gpu.result) == test::row_texts(test::run_sql(db, sql)));
  }
}

// A large result's table follows the keys' domain: where it would take more than a quarter of
// the device's memory (here a limit of 64 MiB against 24 MB for 600,000 slots of two fields),
// the statement takes its own kernels instead.
TEST_CASE(
    "gpu interpreter: a table past its share of device memory takes the statement's kernels") {
  Database db;
  db.put_table(generate_lineitem(0.05, 5));
  const std::string sql =
      "SELECT l_orderkey, SUM(l_extendedprice) AS total FROM lineitem GROUP BY l_orderkey "
      "ORDER BY total DESC, l_orderkey LIMIT 10";
  ExecOptions options = gpu_options("always");
  options.device_memory_limit = uint64_t{64} << 20;
  const StatementOutcome gpu = test::last_outcome(db, sql, options);
  INFO(gpu.timings.gpu);
  CHECK_FALSE(interpreted(gpu));
  CHECK(gpu.timings.gpu.find("the interpreter's table would take") != std::string::npos);
  CHECK(test::row_texts(*gpu.result) == test::row_texts(test::run_sql(db, sql)));
}

// tally run and shell open the GPU while their data loads (Database::warm_gpu): the
// interpreter's module is then loaded before the first statement, here from the disk cache
// where this process's first statement put it.
TEST_CASE("gpu interpreter: a warm-up loads its module before the first statement") {
  Database db;
  db.put_table(generate_lineitem(0.01, 3));
  test::last_outcome(db, "SELECT COUNT(*) FROM lineitem", gpu_options("always"));
  GpuEngine engine;
  CHECK_FALSE(engine.interpreter_loaded());
  engine.warm_up();
  CHECK(engine.interpreter_loaded());
  Database fresh;
  CHECK(fresh.warm_gpu().get() > 0);
}

TEST_CASE("gpu interpreter: every query in queries/ matches the CPU engine, interpreted or not") {
  Database db;
  db.put_table(generate_lineitem(0.05, 11));
  db.put_table(generate_orders_table(50000, 1000, 11));
  db.put_table(generate_atable(200000, 1u << 20, 0, 11));
  db.put_table(generate_nulls_table(60000, 0.2, 11));
  int taken = 0;
  for (const auto& qc : test::query_files()) {
    const std::string sql = test::query_file(qc.name);
    INFO(qc.name);
    ExecOptions cpu_options;
    cpu_options.parameters = qc.params;
    cpu_options.device = DeviceChoice::Cpu;
    const Result cpu = *test::last_outcome(db, sql, cpu_options).result;
    ExecOptions options = gpu_options("always");
    options.parameters = qc.params;
    const StatementOutcome gpu = test::last_outcome(db, sql, options);
    INFO(gpu.timings.gpu);
    taken += interpreted(gpu) ? 1 : 0;
    CHECK(test::result_difference(cpu, *gpu.result, test::gpu_tolerances(cpu)) == "");
  }
  MESSAGE(taken << " of " << test::query_files().size() << " queries interpreted");
  CHECK(taken >= 4);
}

TEST_CASE("gpu interpreter: a new statement runs on it until its own kernels have compiled") {
  Database db;
  db.put_table(generate_lineitem(0.02, 29));
  // Constants no other test uses, so that no cache holds its kernels when the case starts.
  const std::string sql =
      "SELECT l_linenumber, SUM(l_quantity * 3 - 7), COUNT(*) FROM lineitem WHERE l_tax < 0.0431 "
      "GROUP BY 1 ORDER BY 1";
  const std::vector<std::string> expected = test::sorted_row_texts(test::run_sql(db, sql));
  ExecOptions options = gpu_options("on");
  options.kernel_tiers = KernelTiers::QuickFirst;
  // A statement that waits for the interpreter's module first: a session's first statements
  // take their own kernels while the module compiles (on a machine whose disk cache lacks it).
  test::last_outcome(db, "SELECT COUNT(*) FROM lineitem", gpu_options("always"));
  const StatementOutcome first = test::last_outcome(db, sql, options);
  INFO(first.timings.gpu);
  CHECK(interpreted(first));
  CHECK(test::sorted_row_texts(*first.result) == expected);
  db.wait_for_compiles();
  const StatementOutcome second = test::last_outcome(db, sql, options);
  INFO(second.timings.gpu);
  CHECK(!interpreted(second));
  CHECK(test::sorted_row_texts(*second.result) == expected);
}

}  // namespace tally
