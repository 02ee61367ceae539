// runtime/gpu/device_top_k.h (OFFSET + LIMIT <= 32, chosen on the device) and
// runtime/gpu/result_top_k.h (larger, from the downloaded cells): an ORDER BY ... LIMIT over
// many GPU groups keeps its groups from the raw result cells; the rows, in order, equal the
// CPU engine's where the ORDER BY is a total order (ties broken by the group key), for every
// non-string cell type, NULLs first and last, OFFSET and a LIMIT given as a parameter; and
// shapes that need evaluated rows (HAVING, an expression, a string key) still come out right
// through the full path. Over 2^16 groups or more the device's choice starts from a sample.
#include <doctest/doctest.h>

#include <cmath>

#include "runtime/session/database.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& top_k_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 11));  // about 75,000 orders
    d->put_table(generate_nulls_table(200000, 0.2, 11));
    return d;
  }();
  return *db;
}

Result run_on(DeviceChoice device, const std::string& sql, std::vector<std::string> params,
              const std::string& null_order) {
  ExecOptions options;
  options.device = device;
  options.parameters = std::move(params);
  if (!null_order.empty()) options.default_null_order = null_order;
  std::optional<Result> last;
  top_k_db().execute_script(sql, options, [&](const StatementOutcome& o) {
    if (o.result) last = o.result;
  });
  REQUIRE(last.has_value());
  return *last;
}

void expect_same_in_order(const std::string& sql, std::vector<std::string> params = {},
                          const std::string& null_order = "") {
  INFO(sql);
  const Result cpu = run_on(DeviceChoice::Cpu, sql, params, null_order);
  const Result gpu = run_on(DeviceChoice::Gpu, sql, params, null_order);
  CHECK(gpu.device.rfind("gpu", 0) == 0);
  REQUIRE(cpu.rows.size() == gpu.rows.size());
  for (size_t r = 0; r < cpu.rows.size(); ++r) {
    for (size_t c = 0; c < cpu.types.size(); ++c) {
      INFO("row " << r << " column " << cpu.names[c]);
      const Value& x = cpu.rows[r][c];
      const Value& y = gpu.rows[r][c];
      REQUIRE(x.null == y.null);
      if (x.null) continue;
      // NaN and the infinities compare as text: their differences are NaN.
      if (cpu.types[c].is_float() && std::isfinite(x.f) && std::isfinite(y.f)) {
        CHECK(std::fabs(x.f - y.f) <= 1e-9 * std::max(1.0, std::fabs(x.f)));
      } else {
        CHECK(cpu.cell_text(r, c) == gpu.cell_text(r, c));
      }
    }
  }
}

}  // namespace

TEST_CASE("gpu top-k: ORDER BY LIMIT over many groups equals the CPU engine row for row") {
  expect_same_in_order(
      "SELECT l_orderkey, COUNT(*) FROM lineitem GROUP BY l_orderkey ORDER BY 2 DESC, 1 LIMIT 10");
  expect_same_in_order(
      "SELECT l_orderkey, SUM(l_extendedprice) AS s FROM lineitem GROUP BY l_orderkey "
      "ORDER BY s DESC LIMIT 25 OFFSET 5");
  expect_same_in_order(
      "SELECT l_orderkey, MIN(l_shipdate), MAX(l_quantity) FROM lineitem GROUP BY l_orderkey "
      "ORDER BY 2, 1 DESC LIMIT ?",
      {"17"});
  expect_same_in_order(
      "SELECT c_bigint, COUNT(*), SUM(c_wide) FROM nulls GROUP BY c_bigint "
      "ORDER BY 1 NULLS FIRST LIMIT 12");
  expect_same_in_order(
      "SELECT c_bigint, MAX(c_double) FROM nulls GROUP BY c_bigint "
      "ORDER BY 2 DESC NULLS LAST, 1 LIMIT 9");
  expect_same_in_order(
      "SELECT c_double, c_integer, COUNT(*) FROM nulls GROUP BY c_double, c_integer "
      "ORDER BY 1 DESC, 2 LIMIT 8");
}

TEST_CASE("gpu top-k: the device's choice at its limits equals the CPU engine") {
  const std::string by_order =
      "SELECT l_orderkey, SUM(l_quantity) AS q, AVG(l_discount) AS d FROM lineitem "
      "GROUP BY l_orderkey ORDER BY q DESC, d, l_orderkey ";
  expect_same_in_order(by_order + "LIMIT 32");           // the most the device keeps
  expect_same_in_order(by_order + "LIMIT 33");           // one more: the host's path
  expect_same_in_order(by_order + "LIMIT 2 OFFSET 30");  // OFFSET + LIMIT rows are kept
  expect_same_in_order(by_order + "LIMIT 1");
  // Fewer groups than rows asked for, and one fewer.
  expect_same_in_order(
      "SELECT c_boolean, COUNT(*) FROM nulls GROUP BY 1 ORDER BY 2 DESC, 1 NULLS FIRST LIMIT 5");
  expect_same_in_order(
      "SELECT c_boolean, COUNT(*) FROM nulls GROUP BY 1 ORDER BY 1 NULLS FIRST LIMIT 2");
  expect_same_in_order(
      "SELECT c_date, c_smallint, MIN(c_real), MAX(c_wide) FROM nulls GROUP BY 1, 2 "
      "ORDER BY 3 NULLS FIRST, 4 DESC, 1, 2 NULLS FIRST LIMIT 20");
}

TEST_CASE("gpu top-k: over 300,007 groups a sample's k-th bounds the rows as the CPU chooses") {
  // From 2^16 groups a sample's first k run first and a filter keeps only the groups that
  // order no later than its k-th (runtime/gpu/device_top_k.cpp); most groups tie on the first
  // ORDER BY key here, so the candidates are those the second key puts first.
  ExecOptions cpu;
  cpu.device = DeviceChoice::Cpu;
  top_k_db().execute_script(
      "CREATE TABLE many AS SELECT range % 300007 AS k, range * 7919 % 1000 AS v "
      "FROM range(1200000)",
      cpu, [](const StatementOutcome&) {});
  expect_same_in_order(
      "SELECT k, COUNT(*) AS c, SUM(v) FROM many GROUP BY k ORDER BY c DESC, k DESC LIMIT 32");
  expect_same_in_order("SELECT k, SUM(v) AS s FROM many GROUP BY k ORDER BY s, k LIMIT 1");
  expect_same_in_order(
      "SELECT k, MAX(v), MIN(v) AS lo FROM many GROUP BY k ORDER BY lo DESC, 1 LIMIT 5 OFFSET 20");
}

TEST_CASE("gpu top-k: NaN above every number and -0 equal to 0 as on the CPU") {
  ExecOptions cpu;
  cpu.device = DeviceChoice::Cpu;
  top_k_db().execute_script(
      "CREATE TABLE signed_zeros AS SELECT * FROM (VALUES (1, CAST('NaN' AS DOUBLE)), "
      "(2, CAST(0.0 AS DOUBLE)), (3, CAST('-0' AS DOUBLE)), (4, CAST('-Infinity' AS DOUBLE)), "
      "(5, CAST('NaN' AS DOUBLE)), (6, CAST(NULL AS DOUBLE)), (7, 2.5)) AS t(k, x)",
      cpu, [](const StatementOutcome&) {});
  expect_same_in_order("SELECT k, MAX(x) FROM signed_zeros GROUP BY k ORDER BY 2, 1 LIMIT 6");
  expect_same_in_order(
      "SELECT k, MAX(x) FROM signed_zeros GROUP BY k ORDER BY 2 DESC NULLS LAST, 1 DESC LIMIT 6");
}

TEST_CASE("gpu top-k: the NULL order setting moves NULLs in a program already compiled") {
  const std::string sql =
      "SELECT c_integer, MIN(c_decimal) AS m FROM nulls GROUP BY 1 ORDER BY m, 1 LIMIT 4";
  for (const char* order : {"nulls_first", "nulls_last", "nulls_first"}) {
    INFO(order);
    expect_same_in_order(sql, {}, order);
  }
}

}  // namespace tally
