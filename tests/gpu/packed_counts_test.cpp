// compiler/plan/count_sum_packing.h on the GPU: Direct and Hash tables that add the row count
// and a sum with one atomic give the CPU engine's results, where the sums carry past 32 bits,
// take an offset, skip NULLs, and where a hash table grows and the Scan runs again.
#include <doctest/doctest.h>

#include <optional>

#include "compiler/bind/binder.h"
#include "compiler/parse/parser.h"
#include "runtime/gpu/gpu_engine.h"
#include "tests/gpu/gpu_support.h"
#include "tests/gpu/strategy_compare.h"

namespace tally {
namespace {

Database& packed_db() {
  static Database* db = [] {
    auto* d = new Database();
    test::run_script(
        *d,
        "CREATE TABLE p (k INTEGER, small INTEGER, big BIGINT, neg INTEGER, nv INTEGER);"
        "INSERT INTO p SELECT range % 997, range * 7919 % 1000000, range * 2654435761 % "
        "4000000000, range * 104729 % 1000000001 - 500000000, CASE WHEN range % 7 = 0 THEN "
        "NULL ELSE range % 50000 END FROM range(200000);"
        // Key 0 takes three rows in four; MAX of a 128-bit value leaves the Direct plan
        // without a block cache, so they all reach one packed word.
        "CREATE TABLE hot (k INTEGER, big BIGINT, w DECIMAL(30,2));"
        "INSERT INTO hot SELECT CASE WHEN range % 4 = 0 THEN range % 1000 ELSE 0 END, range * "
        "2654435761 % 4000000000, range FROM range(200000);"
        // Key 0 takes one row in 4,000 (1,049 rows), which the plan's sample of 8,192 rows
        // sees about twice: too few to tell, so the plan keeps the low-count layout.
        "CREATE TABLE rare (k BIGINT, big BIGINT, w DECIMAL(30,2));"
        "INSERT INTO rare SELECT CASE WHEN range % 4000 = 0 THEN 0 ELSE range END, range * "
        "2654435761 % 4000000000, range FROM range(4194304)");
    return d;
  }();
  return *db;
}

Result run(const std::string& sql, DeviceChoice device, uint64_t capacity = 0) {
  return test::run_on_device(packed_db(), sql, device, "hash", capacity);
}

// The Direct plan of `sql` over `table` on the GPU, its report in `report`.
Result run_direct(const std::string& sql, const std::string& table, GpuRunReport& report) {
  auto statements = parse_script(sql);
  const BoundSelect query =
      bind_select(std::get<ast::SelectStmt>(statements[0].body), packed_db(), 0);
  GpuEngine engine;
  GpuRunOptions options;
  options.strategy = GpuStrategy::Direct;
  return engine.run(query, *packed_db().table(table), {}, std::make_shared<StringHeap>(), options,
                    &report);
}

}  // namespace

TEST_CASE("gpu packed counts: one atomic a row gives the CPU engine's counts and sums") {
  const char* const queries[] = {
      "SELECT k, COUNT(*), SUM(small) FROM p GROUP BY k ORDER BY k",
      // about 200 rows of values to 4e9 a group: each sum carries past 32 bits many times
      "SELECT k, COUNT(*), SUM(big), AVG(big) FROM p GROUP BY k ORDER BY k",
      "SELECT k % 10 AS m, COUNT(*), SUM(big) FROM p GROUP BY m ORDER BY m",
      // values from -5e8: packed less the offset, which comes back once a row
      "SELECT k, COUNT(*), SUM(neg), MIN(neg) FROM p GROUP BY k ORDER BY k",
      // a nullable sum adds 0 for NULL and is NULL where a group has no value
      "SELECT small % 3000 AS m, COUNT(*), SUM(nv), COUNT(nv) FROM p WHERE k < 500 GROUP BY m "
      "ORDER BY m",
      "SELECT k, SUM(big) FROM p WHERE small > 500000 GROUP BY k ORDER BY k"};
  for (const char* sql : queries) {
    INFO(sql);
    CHECK(test::compare_gpu_strategies(packed_db(), sql) > 0);
  }
}

TEST_CASE("gpu packed counts: a hash table that grows runs the Scan again from zero") {
  const std::string sql = "SELECT k, COUNT(*), SUM(big) FROM p GROUP BY k ORDER BY k";
  const Result cpu = run(sql, DeviceChoice::Cpu);
  const Result gpu = run(sql, DeviceChoice::Gpu, 64);  // 997 groups: grown and rerun
  CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
}

// 200,000 rows take 18 count bits, so a sum holds 46 and is exact for 2^46 / 4e9 = 17,592 rows
// of values to 4e9; key 0's ~150,000 are past that, and the plan's sample says so: the carrying
// layout from the start, one Scan.
TEST_CASE("gpu packed counts: a hot key the sample sees packs with carries from the start") {
  const std::string sql = "SELECT k, COUNT(*), SUM(big), MAX(w) FROM hot GROUP BY k ORDER BY k";
  GpuRunReport report;
  const Result gpu = run_direct(sql, "hot", report);
  INFO(report.plan);
  CHECK(report.attempts == 1);
  CHECK(report.plan.find("the packed sum carries") != std::string::npos);
  const Result cpu = run(sql, DeviceChoice::Cpu);
  CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
}

// 2^22 rows take 23 count bits: a sum is exact for 2^41 / 4e9 = 549 rows. Key 0's 1,049 are
// past that, unseen by the sample: the Finalizer says so and the Scan runs again with carries.
TEST_CASE("gpu packed counts: a sum that may have wrapped runs again with carries") {
  const std::string sql =
      "SELECT k, COUNT(*), SUM(big), MAX(w) FROM rare GROUP BY k ORDER BY k LIMIT 5";
  GpuRunReport report;
  const Result gpu = run_direct(sql, "rare", report);
  CHECK(report.attempts == 2);
  CHECK(report.reruns == "a packed sum could have wrapped");
  const Result cpu = run(sql, DeviceChoice::Cpu);
  CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
}

}  // namespace tally
