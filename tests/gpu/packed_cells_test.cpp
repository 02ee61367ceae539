// Packed per-thread cells (compiler/plan/thread_cell_packing.h) on the GPU: non-negative sums that
// share a 64-bit shared word must come out exactly as the CPU engine's, even when a lane's
// sum fills its field to the top bit. The table has exactly two 1024-row blocks per warp of
// the planned grid, so every lane sums the 64 rows its field was sized for; the values sit
// at the top of their ranges, so a field one bit short would carry into its neighbour.
#include <doctest/doctest.h>

#include <string>

#include "runtime/gpu/gpu_engine.h"
#include "runtime/load/parallel.h"
#include "runtime/session/database.h"
#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/result_compare.h"

namespace tally::cuda::test {
namespace {

// Warps of a grid of 8 blocks of 128 per SM: the register bound of scans with shared thread
// tables (compiler/plan/planner.cpp), reached when the tables are this small.
uint64_t planned_warps() { return static_cast<uint64_t>(test_device().profile().sm_count) * 8 * 4; }

TablePtr full_lanes_table() {
  TableSchema schema{"t",
                     {{"g", Type::integer()},
                      {"q", Type::decimal(9, 2)},
                      {"n", Type::decimal(9, 2)},
                      {"i", Type::integer()},
                      {"neg", Type::bigint()}}};
  const uint64_t rows = planned_warps() * 1024 * 2;
  return build_table_parallel(
      std::move(schema), rows, [](std::vector<ColumnBuilder>& c, size_t begin, size_t end) {
        for (size_t row = begin; row < end; ++row) {
          // Six groups (enough for shared thread tables) but all rows past the fifth in one:
          // every other lane's 64 rows land in its one slot.
          c[0].append_int(row < 5 ? static_cast<int64_t>(row) + 1 : 0);
          c[1].append_int(9999999 - static_cast<int64_t>(row & 1));  // 99999.99 and .98
          if (row % 5 == 0) {
            c[2].append_null();
          } else {
            c[2].append_int(static_cast<int64_t>(row % 1000) * 1000);
          }
          c[3].append_int(1048575 - static_cast<int64_t>(row & 1));  // 2^20 - 1 and - 2
          c[4].append_int(static_cast<int64_t>(row % 100) - 50);
        }
      });
}

Database& packed_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(full_lanes_table());
    return d;
  }();
  return *db;
}

Result run(const std::string& sql, DeviceChoice device) {
  ExecOptions options;
  options.device = device;
  options.strategy = device == DeviceChoice::Gpu ? "thread" : "auto";
  tally::test::RunOutcome outcome = tally::test::run_outcome(packed_db(), sql, options);
  INFO(outcome.error);
  REQUIRE(outcome.ok);
  return outcome.result;
}

void check_packed_query(const std::string& sql) {
  INFO(sql);
  // The Scan this query gets on this GPU: its grid, and whether its cells were packed.
  const auto [plan, source] = tally::test::generate_scan(
      packed_db(), sql, GpuStrategy::ThreadPrivate, device_limits(test_device().profile()));
  REQUIRE(plan.shared_thread_tables);
  // Every lane's warp takes exactly two blocks: the fields are as full as they were sized.
  CHECK(uint64_t{plan.grid} * plan.block / 32 == planned_warps());
  CHECK(source.find("packed0_cell[(u32)slot * 128u] += ") != std::string::npos);
  Result cpu = run(sql, DeviceChoice::Cpu);
  Result gpu = run(sql, DeviceChoice::Gpu);
  CHECK(gpu.device.rfind("gpu", 0) == 0);
  CHECK(tally::test::result_difference(cpu, gpu, {}) == "");
}

TEST_CASE("packed cells: sums filling their fields to the top bit match the CPU engine") {
  check_packed_query(
      "SELECT g, COUNT(*), COUNT(n), SUM(q), SUM(n), SUM(i), AVG(q), SUM(neg) FROM t GROUP BY g");
  // NULLs in a packed sum and count, an average over them, a sum that can be negative
  // (its own cell) between packed ones.
  check_packed_query(
      "SELECT g, SUM(neg), SUM(n), AVG(n), COUNT(n), SUM(i), COUNT(*) FROM t WHERE q > 0 GROUP "
      "BY g");
}

}  // namespace
}  // namespace tally::cuda::test
