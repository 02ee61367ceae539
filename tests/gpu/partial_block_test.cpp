// Scans with per-thread tables in shared memory walk whole 1024-row blocks unrolled, with no
// check that a row exists, and do the one partial block after the walk, row by row
// (compiler/codegen/aggregation_kernels.cpp, chunked_walk). The rows past the end of that block
// decode the columns' padding, which must not count. Tables of sizes around the block and the grid
// (the partial block alone, none, and one that falls to a warp past the first) must give
// the CPU engine's result.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/gpu/gpu_engine.h"
#include "runtime/load/parallel.h"
#include "runtime/session/database.h"
#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/result_compare.h"

namespace tally::cuda::test {
namespace {

TablePtr sized_table(uint64_t rows) {
  TableSchema schema{"t",
                     {{"g", Type::integer()}, {"v", Type::decimal(9, 2)}, {"d", Type::integer()}}};
  return build_table_parallel(std::move(schema), rows,
                              [](std::vector<ColumnBuilder>& c, size_t begin, size_t end) {
                                for (size_t row = begin; row < end; ++row) {
                                  c[0].append_int(static_cast<int64_t>(row % 5));
                                  // Padding decodes to each column's minimum: 1.00 and 10, which
                                  // would add to every sum and count below.
                                  c[1].append_int(100 + static_cast<int64_t>(row % 997));
                                  c[2].append_int(10 + static_cast<int64_t>(row % 31));
                                }
                              });
}

Result run(Database& db, const std::string& sql, DeviceChoice device) {
  ExecOptions options;
  options.device = device;
  options.strategy = device == DeviceChoice::Gpu ? "thread" : "auto";
  tally::test::RunOutcome outcome = tally::test::run_outcome(db, sql, options);
  INFO(outcome.error);
  REQUIRE(outcome.ok);
  return outcome.result;
}

// Whether this query's Scan on this GPU walks whole blocks unrolled (shared thread tables).
bool walks_whole_blocks(Database& db, const std::string& sql) {
  const auto [plan, source] = tally::test::generate_scan(db, sql, GpuStrategy::ThreadPrivate,
                                                         device_limits(test_device().profile()));
  return plan.shared_thread_tables &&
         source.find("for (; (block + 1) * 1024 <= walk_rows; block += warps)") !=
             std::string::npos;
}

TEST_CASE("whole-block walk: partial last blocks at every position match the CPU engine") {
  const uint64_t warps = static_cast<uint64_t>(test_device().profile().sm_count) * 8 * 4;
  const std::vector<uint64_t> sizes = {
      1, 31, 1000, 1024, 1025, 4609, 8192, warps * 1024 + 777, (warps + 3) * 1024 + 5};
  const std::vector<std::string> queries = {
      "SELECT g, COUNT(*), SUM(v), AVG(v), SUM(d) FROM t GROUP BY g",
      "SELECT g, COUNT(*), SUM(v * (100 - d)) FROM t WHERE d <= 30 GROUP BY g",
      // Tables of two slots and of one.
      "SELECT g % 2 AS h, COUNT(*), SUM(v), MIN(d) FROM t GROUP BY h",
      "SELECT g % 1 AS z, COUNT(*), SUM(v) FROM t WHERE d > 12 GROUP BY z",
      "SELECT COUNT(*), SUM(v), MIN(d), AVG(v * d) FROM t WHERE d > 12"};
  int walked = 0;
  for (uint64_t rows : sizes) {
    Database db;
    db.put_table(sized_table(rows));
    for (const std::string& sql : queries) {
      INFO(rows << " rows: " << sql);
      if (walks_whole_blocks(db, sql)) ++walked;
      Result cpu = run(db, sql, DeviceChoice::Cpu);
      Result gpu = run(db, sql, DeviceChoice::Gpu);
      CHECK(gpu.device.rfind("gpu", 0) == 0);
      CHECK(tally::test::result_difference(cpu, gpu, {}) == "");
    }
  }
  // The sizes past a few blocks are planned with shared tables: the walk was exercised.
  CHECK(walked >= 4 * static_cast<int>(queries.size()));
}

}  // namespace
}  // namespace tally::cuda::test
