// The Finalizer (compiler/codegen/finalizer.cpp): the packed row count and sum taken into
// locals beside what a block cache flushed, each occupied slot given an output row (a warp
// claims the rows of several slots a lane at once), checked against the CPU engine where most
// slots are occupied, where few are, under HAVING, and where a hash table of 2^25 slots makes
// each thread of the grid (8,192 blocks of 256) walk 16.
#include <doctest/doctest.h>

#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

Database& finalizer_db() {
  static Database* db = [] {
    auto* d = new Database();
    test::run_script(
        *d,
        "CREATE TABLE t (k INTEGER, sparse BIGINT, v INTEGER, w DECIMAL(30,2));"
        "INSERT INTO t SELECT range % 70001, CASE WHEN range % 13 = 0 THEN NULL ELSE "
        "range * 2654435761 % 30000000 END, range * 7919 % 1000000, range FROM range(300000)");
    return d;
  }();
  return *db;
}

}  // namespace

TEST_CASE("gpu finalizer: dense and sparse tables give the CPU engine's groups") {
  const char* const queries[] = {
      // 70,001 groups of about 4 rows: most slots of a Direct table occupied
      "SELECT k, COUNT(*), SUM(v) FROM t GROUP BY k ORDER BY k",
      // a state with no packed count (MAX of a 128-bit value), and AVG
      "SELECT k % 5000 AS m, MAX(w), AVG(v) FROM t GROUP BY m ORDER BY m",
      // about 280,000 groups spread over 30,000,000 values, and the NULL key
      "SELECT sparse, COUNT(*), SUM(v) FROM t GROUP BY sparse ORDER BY sparse",
      // HAVING on the device: the finals in locals, then a row for the kept groups
      "SELECT k, COUNT(*), SUM(v) FROM t GROUP BY k HAVING SUM(v) > 2500000 ORDER BY k",
      // HAVING over 30,000,000 slots: each lane looks at 8 slots before its warp claims rows
      "SELECT sparse, SUM(v) FROM t GROUP BY sparse HAVING SUM(v) > 500000 ORDER BY sparse"};
  for (const char* sql : queries) {
    INFO(sql);
    CHECK(test::compare_gpu_strategies(finalizer_db(), sql) > 0);
  }
}

TEST_CASE("gpu finalizer: a table of 2^25 slots is walked by every thread of the grid") {
  const char* const queries[] = {
      "SELECT sparse, COUNT(*), SUM(v) FROM t GROUP BY sparse ORDER BY sparse",
      "SELECT k, MAX(w), COUNT(sparse) FROM t GROUP BY k ORDER BY k"};
  for (const char* sql : queries) {
    INFO(sql);
    const Result cpu = test::run_on_device(finalizer_db(), sql, DeviceChoice::Cpu, "hash");
    const Result gpu =
        test::run_on_device(finalizer_db(), sql, DeviceChoice::Gpu, "hash", uint64_t{1} << 25);
    REQUIRE(cpu.rows.size() > 70000);
    CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
  }
}

}  // namespace tally
