// The CPU engine's vector path on cases chosen by hand: TPC-H Q1 and Q6 exactly as the row
// path gives them, errors raised (or not, behind a guard) as the row path raises them,
// NULL keys in direct and hash tables, 128-bit DECIMAL sums, aggregates kept in the row
// path's states, and how a query's path is chosen (CpuOptions::path, TALLY_CPU_PATH) and
// why one is declined.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>

#include "tests/unit/support/result_check.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Result run_on(Database& db, const std::string& sql, CpuPath path,
              std::vector<std::string> parameters = {}) {
  return test::run_sql(db, sql, std::move(parameters), path);
}

std::string error_on(Database& db, const std::string& sql, CpuPath path) {
  try {
    run_on(db, sql, path);
  } catch (const Error& e) {
    return std::string(error_kind_name(e.kind())) + ": " + e.what();
  }
  return "";
}

void check_same(Database& db, const std::string& sql, std::vector<std::string> parameters = {}) {
  INFO(sql);
  const auto row = test::sorted_row_texts(run_on(db, sql, CpuPath::Row, parameters));
  const auto vec = test::sorted_row_texts(run_on(db, sql, CpuPath::Vector, parameters));
  CHECK(vec == row);
  CHECK(!row.empty());
}

// Small tables with NULLs, zeros and extreme values.
Database& edge_db() {
  static Database* db = [] {
    auto* d = new Database();
    test::run_script(*d,
                     "CREATE TABLE t (k INTEGER, s VARCHAR, a BIGINT, b INTEGER, d DECIMAL(12,2), "
                     "w DECIMAL(38,0), f DOUBLE);"
                     "INSERT INTO t VALUES (1, 'x', 9000000000000000000, 0, 1.50, "
                     "90000000000000000000000000000000000000, 0.5),"
                     "(NULL, 'y', 9000000000000000000, 2, NULL, "
                     "90000000000000000000000000000000000000, NULL),"
                     "(2, NULL, -5, 5, -2.25, 1, -0.0),"
                     "(NULL, 'x', NULL, NULL, 3.00, NULL, 2.5),"
                     "(1, 'y', 7, 1, 0.01, 5, 1e300);");
    return d;
  }();
  return *db;
}

}  // namespace

TEST_CASE("cpu vector path: TPC-H Q1 and Q6 give the row path's rows exactly") {
  Database db;
  db.put_table(generate_lineitem(0.05, 11));
  check_same(db, test::query_file("tpch_q1"));
  check_same(db, test::query_file("tpch_q6"));
  check_same(db,
             "SELECT l_orderkey, COUNT(*), SUM(l_quantity), MIN(l_shipdate), MAX(l_discount) "
             "FROM lineitem WHERE l_shipmode <> 'AIR' GROUP BY l_orderkey");
  check_same(db,
             "SELECT l_partkey / 3, l_returnflag, AVG(l_extendedprice), COUNT(l_comment) FROM "
             "lineitem WHERE l_quantity BETWEEN ? AND ? GROUP BY 1, 2",
             {"10", "20"});
}

TEST_CASE("cpu vector path: many groups merge partition by partition on every worker") {
  Database db;
  db.put_table(generate_lineitem(0.05, 12));  // 75,000 orders: above the partitioned merge's bound
  ExecOptions options;
  options.device = DeviceChoice::Cpu;
  options.cpu_threads = 4;
  for (const char* sql :
       {"SELECT l_orderkey, COUNT(*), SUM(l_quantity), AVG(l_discount), MAX(l_shipdate) FROM "
        "lineitem GROUP BY l_orderkey",
        "SELECT l_orderkey, l_linenumber % 2, COUNT(DISTINCT l_partkey), STDDEV_SAMP(l_tax) FROM "
        "lineitem GROUP BY 1, 2 HAVING COUNT(*) > 1",
        "SELECT l_orderkey, COUNT(*) FROM lineitem WHERE l_quantity > 100 GROUP BY 1"}) {
    INFO(sql);
    options.cpu_path = CpuPath::Row;
    const auto row = test::sorted_row_texts(test::last_result(db, sql, options));
    options.cpu_path = CpuPath::Vector;
    const Result vec = test::last_result(db, sql, options);
    CHECK(test::sorted_row_texts(vec) == row);
  }
  options.cpu_path = CpuPath::Vector;
  const Result counted =
      test::last_result(db, "SELECT l_orderkey, COUNT(*) FROM lineitem GROUP BY 1", options);
  CHECK(counted.rows.size() == 75000);
  int64_t rows = 0;
  for (const auto& r : counted.rows) rows += r[1].i;
  CHECK(rows == test::last_result(db, "SELECT COUNT(*) FROM lineitem", options).rows[0][0].i);
}

TEST_CASE("cpu vector path: errors are the row path's - and guarded ones are not raised") {
  Database& db = edge_db();
  for (const char* sql : {"SELECT SUM(a / b) FROM t", "SELECT k, SUM(a + a) FROM t GROUP BY k",
                          "SELECT MAX(CAST(a AS INTEGER)) FROM t", "SELECT SUM(w) FROM t",
                          "SELECT SUM(f / (b - b)) FROM t"}) {
    INFO(sql);
    const std::string row = error_on(db, sql, CpuPath::Row);
    CHECK(row.starts_with("execution error"));
    CHECK(error_on(db, sql, CpuPath::Vector) == row);
  }
  check_same(db, "SELECT SUM(CASE WHEN b <> 0 THEN a / b ELSE 0 END) FROM t");
  check_same(db, "SELECT SUM(a), k FROM t GROUP BY k");  // DECIMAL(38,0): 2 * 9e18 fits
  check_same(db, "SELECT COUNT(*) FROM t WHERE b <> 0 AND 100 / b > 10");
  check_same(db, "SELECT COUNT(*) FROM t WHERE b = 0 OR 100 / b > 10");
  check_same(db, "SELECT SUM(COALESCE(b, 7) + 1), MIN(d), MAX(d), AVG(d) FROM t");
}

TEST_CASE("cpu vector path: NULL keys form one group in direct and hash tables") {
  Database& db = edge_db();
  check_same(db, "SELECT k, s, COUNT(*), COUNT(b), SUM(d), MIN(f), MAX(f) FROM t GROUP BY k, s");
  check_same(db, "SELECT a, COUNT(*), SUM(b) FROM t GROUP BY a");  // wide domain: hashed
  check_same(db, "SELECT f, d, COUNT(*) FROM t GROUP BY f, d");
  check_same(db, "SELECT b % 2, SUM(w) FROM t WHERE w < 10 GROUP BY 1");
  const Result r = run_on(db, "SELECT k, COUNT(*) FROM t GROUP BY k ORDER BY k", CpuPath::Vector);
  REQUIRE(r.rows.size() == 3);
  CHECK(r.rows[0][0].i == 1);
  CHECK(r.rows[0][1].i == 2);
  CHECK(r.rows[2][0].null);
  CHECK(r.rows[2][1].i == 2);
}

TEST_CASE("cpu vector path: the path is chosen before the scan - and a declined one says why") {
  Database& db = edge_db();
  const std::string declined = "SELECT b FROM t";
  CHECK(error_on(db, declined, CpuPath::Vector).find("without aggregates") != std::string::npos);
  CHECK(run_on(db, declined, CpuPath::Auto).rows.size() == 5);
  CHECK(error_on(db, "SELECT COUNT(*) FROM t WHERE b IN (k, 2)", CpuPath::Vector)
            .find("non-constant") != std::string::npos);
  ::setenv("TALLY_CPU_PATH", "bogus", 1);
  CHECK(error_on(db, "SELECT COUNT(*) FROM t", CpuPath::Auto).find("TALLY_CPU_PATH") !=
        std::string::npos);
  ::setenv("TALLY_CPU_PATH", "vector", 1);
  CHECK(error_on(db, declined, CpuPath::Auto).find("without aggregates") != std::string::npos);
  ::setenv("TALLY_CPU_PATH", "row", 1);
  CHECK(error_on(db, declined, CpuPath::Auto).empty());
  ::unsetenv("TALLY_CPU_PATH");
}

TEST_CASE("cpu vector path: aggregates without typed states keep the row path's states") {
  Database& db = edge_db();
  check_same(db, "SELECT k, COUNT(DISTINCT b), SUM(DISTINCT d), MIN(s), MAX(s) FROM t GROUP BY k");
  check_same(db, "SELECT s, VAR_SAMP(d), STDDEV_SAMP(f), BOOL_AND(b > 0) FROM t GROUP BY s");
  check_same(db,
             "SELECT k, COUNT_IF(b > 0), BIT_AND(b), BIT_OR(a), BIT_XOR(DISTINCT b), PRODUCT(d), "
             "ANY_VALUE(s), FIRST(w), VAR_SAMP(a), STDDEV_SAMP(w) FROM t GROUP BY k");
  check_same(db, "SELECT COUNT_IF(f > 0), PRODUCT(DISTINCT b), BIT_XOR(a) FROM t");
}

// Aggregates of two arguments whose state is numbers (COVAR, CORR, REGR_*) merge both
// argument vectors on the vector path; SKEWNESS/KURTOSIS keep the row path's states.
TEST_CASE("cpu vector path: the statistical aggregates give the row path's results") {
  Database& db = edge_db();
  check_same(db,
             "SELECT k, COVAR_POP(f, b), COVAR_SAMP(d, a), CORR(b, d), REGR_SLOPE(f, d), "
             "REGR_INTERCEPT(f, d), REGR_COUNT(a, b), REGR_R2(b, f), REGR_SXY(w, b) FROM t "
             "GROUP BY k");
  check_same(db,
             "SELECT s, SKEWNESS(b), KURTOSIS(d), REGR_AVGX(f, b), REGR_SYY(f, b) FROM t "
             "GROUP BY s");
  check_same(db, "SELECT CORR(f, b), REGR_COUNT(d, f), SKEWNESS(f), KURTOSIS(b) FROM t");
}

TEST_CASE("cpu vector path: ARG_MIN and ARG_MAX go to the row path - saying why") {
  Database& db = edge_db();
  const std::string sql = "SELECT k, ARG_MIN(s, b), MAX_BY(d, a) FROM t GROUP BY k";
  CHECK(error_on(db, sql, CpuPath::Vector).find("two arguments") != std::string::npos);
  const auto rows = test::sorted_row_texts(run_on(db, sql, CpuPath::Auto));
  // k = 1: b 0 -> 'x', a 9e18 -> 1.50; k = 2: b 5 -> NULL (s is NULL: skipped), a -5 -> -2.25;
  // k NULL: b 2 -> 'y' (b NULL skipped), a 9e18 -> NULL d skipped, 3.00's a is NULL: NULL.
  CHECK(rows == std::vector<std::string>{"1|x|1.50|", "2|NULL|-2.25|", "NULL|y|NULL|"});
}

TEST_CASE("cpu vector path: string order between two columns is the row path's - by bytes") {
  Database db;
  test::run_script(db,
                   "CREATE TABLE p (k INTEGER, s VARCHAR, u VARCHAR);"
                   "INSERT INTO p VALUES (1, 'a', 'a'), (2, 'b', 'a'), (3, 'a', 'b'), "
                   "(4, NULL, 'a'), (5, '', ''), (6, 'ab', 'a'), (7, 'a', NULL), (8, 'B', 'a'), "
                   "(9, '', 'b'), (10, 'é', 'z');");
  for (const char* op : {"<", "<=", ">", ">=", "=", "<>"}) {
    const std::string cmp = std::string("s ") + op + " u";
    check_same(db, "SELECT " + cmp + " AS c, COUNT(*), SUM(k) FROM p GROUP BY 1");
    check_same(db, "SELECT COUNT(*), SUM(k) FROM p WHERE " + cmp);
  }
  // Byte order: 'B' (0x42) sorts before 'a', and 'é' (0xC3 0xA9) after 'z'.
  const auto rows =
      test::sorted_row_texts(run_on(db, "SELECT k FROM p WHERE s < u GROUP BY k", CpuPath::Vector));
  CHECK(rows == std::vector<std::string>{"3|", "8|", "9|"});
}

}  // namespace tally
