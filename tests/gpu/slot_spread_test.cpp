// compiler/plan/slot_spread.h on the GPU: a Direct plan whose slots are spread over its table
// (the Scan multiplies each key's slot, the Finalizer undoes it) gives the CPU engine's
// results: packed and unpacked states, NULL keys, two keys whose product is not a power of
// two, skewed keys behind a block cache, a filter, DISTINCT, a second pass and a nullable
// string key (its dictionary codes spread).
#include "compiler/plan/slot_spread.h"

#include <doctest/doctest.h>

#include "runtime/gpu/gpu_engine.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

// Keys over more slots than a block table holds, in no order: k (2^17 values), kn (100,003
// values and NULL), k2 x kn (7 x 100,004), kz, skewed (a few hot keys, then a long tail), and
// sk, k as strings with NULLs.
Database& spread_db() {
  static Database* db = test::make_planner_db(
      "CREATE TABLE s (k INTEGER, kn INTEGER, k2 INTEGER, kz INTEGER, v INTEGER, big BIGINT, "
      "d INTEGER, x DOUBLE, sk VARCHAR);"
      "INSERT INTO s SELECT range * 7919 % 131072, CASE WHEN range % 11 = 0 THEN NULL ELSE "
      "range * 31 % 100003 END, range % 7, CASE WHEN range % 3 = 0 THEN range % 5 ELSE "
      "range * 7919 % 200000 END, range % 1000, range * 2654435761 % 4000000000, range % 37, "
      "range * 0.5, CASE WHEN range % 13 = 0 THEN NULL ELSE CAST(range * 7919 % 131072 AS "
      "VARCHAR) END FROM range(400000)");
  return *db;
}

}  // namespace

TEST_CASE("gpu slot spread: a Direct table with spread slots gives the CPU engine's results") {
  const char* const queries[] = {
      "SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k ORDER BY k",
      "SELECT k, COUNT(*), SUM(big), MIN(v), MAX(big), AVG(x) FROM s GROUP BY k ORDER BY k",
      "SELECT kn, COUNT(*), SUM(v), COUNT(DISTINCT d) FROM s GROUP BY kn ORDER BY kn",
      "SELECT k2, kn, COUNT(*), SUM(v) FROM s WHERE v < 900 GROUP BY k2, kn ORDER BY 1, 2",
      "SELECT kz, COUNT(*), SUM(v), MAX(d) FROM s GROUP BY kz ORDER BY kz",
      "SELECT k, COUNT(*), STDDEV_SAMP(x), SUM(v) FROM s GROUP BY k ORDER BY k",
      "SELECT sk, COUNT(*), SUM(v), MAX(d) FROM s GROUP BY sk ORDER BY sk"};
  for (const char* sql : queries) {
    INFO(sql);
    GpuEngine engine;
    GpuRunOptions options;
    options.strategy = GpuStrategy::Direct;
    GpuRunReport report;
    const Result gpu = engine.run(test::bind_first(spread_db(), sql), *spread_db().table("s"), {},
                                  std::make_shared<StringHeap>(), options, &report);
    INFO(report.plan);
    CHECK(report.plan.find("(neighbours spread)") != std::string::npos);
    const Result cpu = test::run_sql(spread_db(), sql);
    CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
  }
}

}  // namespace tally
