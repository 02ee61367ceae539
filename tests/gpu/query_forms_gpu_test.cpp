// Aggregates over WITH queries, derived tables, UNION ALL and a scalar subquery on the GPU
// against the CPU engine: the parts run first on the CPU engine, and the aggregate query
// over their rows runs on the GPU (runtime/session/run_query_forms.cpp). Integer and
// DECIMAL results match exactly, NULLs included.
#include <doctest/doctest.h>

#include <string>

#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& forms_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(50000, 0.2, 23));
    return d;
  }();
  return *db;
}

// `sql` on the GPU and on the CPU engine: the same rows, and the GPU ran the outer query.
void compare_engines(const std::string& sql) {
  INFO(sql);
  const Result cpu = test::run_sql(forms_db(), sql);
  const Result gpu = test::run_on_device(forms_db(), sql, DeviceChoice::Gpu, "auto");
  CHECK(gpu.device.rfind("gpu", 0) == 0);
  CHECK_FALSE(cpu.rows.empty());
  CHECK(test::result_difference(cpu, gpu, {}) == "");
}

}  // namespace

TEST_CASE("gpu query forms: aggregates over WITH - derived tables - UNION ALL and subqueries") {
  compare_engines(
      "WITH kept AS (SELECT c_varchar, c_integer, c_decimal FROM nulls WHERE c_integer % 3 <> 0) "
      "SELECT c_varchar, COUNT(*), SUM(c_integer), SUM(c_decimal), MIN(c_decimal) FROM kept "
      "GROUP BY c_varchar ORDER BY 1");
  compare_engines(
      "SELECT k, COUNT(*), COUNT(s), SUM(s), MAX(s) FROM (SELECT c_integer % 7 AS k, c_decimal AS "
      "s FROM nulls) AS t GROUP BY k ORDER BY 1");
  compare_engines(
      "SELECT k, COUNT(*), SUM(v) FROM (SELECT c_smallint AS k, c_integer AS v FROM nulls WHERE "
      "c_boolean UNION ALL SELECT c_smallint, c_bigint FROM nulls WHERE NOT c_boolean) AS u "
      "GROUP BY k ORDER BY 1");
  compare_engines(
      "SELECT c_boolean, COUNT(*), SUM(c_decimal) FROM nulls WHERE c_integer > (SELECT "
      "AVG(c_integer) FROM nulls) AND c_smallint IN (SELECT c_smallint FROM nulls WHERE "
      "c_smallint < 5) GROUP BY 1 ORDER BY 1");
  compare_engines(
      "SELECT v, COUNT(*) FROM (VALUES (1, 'a'), (2, 'b'), (2, NULL)) AS t(v, w) GROUP BY v "
      "ORDER BY 1");
}

// Each side of a UNION of aggregate queries runs on the device the session chose.
TEST_CASE("gpu query forms: a UNION of aggregate queries matches the CPU engine") {
  const std::string sql =
      "SELECT c_boolean, SUM(c_integer) FROM nulls GROUP BY 1 UNION SELECT c_boolean, "
      "SUM(c_integer) + 1 FROM nulls GROUP BY 1 ORDER BY 1, 2";
  const Result cpu = test::run_sql(forms_db(), sql);
  const Result gpu = test::run_on_device(forms_db(), sql, DeviceChoice::Auto, "auto");
  CHECK(cpu.rows.size() == 6);  // TRUE, FALSE and NULL, each sum and sum + 1
  CHECK(test::result_difference(cpu, gpu, {}) == "");
}

}  // namespace tally
