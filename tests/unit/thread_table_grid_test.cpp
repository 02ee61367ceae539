// The planner's grid for per-thread tables in shared memory: one wave of as many blocks per
// SM as the tables fit (compiler/plan/shared_placement.cpp place_thread_tables_in_shared),
// and the Scan's launch bounds asking for that many.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "compiler/codegen/gpu_program.h"
#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/planner_fixture.h"

namespace tally {
namespace {

Database& grid_db() {
  static Database* db = test::make_planner_db("");
  return *db;
}

std::vector<ColumnStats> stats_of(const BoundSelect& q) {
  return scan_stats(q, *grid_db().table(q.table));
}

const char* const kQ1Shape =
    "SELECT l_returnflag, l_linestatus, SUM(l_quantity), SUM(l_extendedprice), "
    "SUM(l_extendedprice * (1 - l_discount)), AVG(l_discount), COUNT(*) FROM lineitem "
    "GROUP BY l_returnflag, l_linestatus";

TEST_CASE("thread-table grid: one wave of the blocks whose tables fit an SM") {
  BoundSelect q = test::bind_first(grid_db(), kQ1Shape);
  GpuPlan plan = test::plan_bound(grid_db(), q, GpuStrategy::Auto);
  REQUIRE(plan.strategy == GpuStrategy::ThreadPrivate);
  REQUIRE(plan.shared_thread_tables);
  CHECK(plan.block == 128);
  const DeviceLimits limits;
  const uint64_t bytes = plan.thread_tables.shared_bytes;
  REQUIRE(bytes > 0);
  // Resident blocks: bounded by shared memory (1 KB reserved per block), by threads, and
  // by registers (64 a thread).
  const uint64_t fit = std::min<uint64_t>({limits.shared_per_sm / (bytes + 1024),
                                           limits.max_threads_per_sm / plan.block,
                                           limits.registers_per_sm / (64u * plan.block)});
  CHECK(plan.blocks_per_sm == fit);
  CHECK(plan.grid == limits.sm_count * fit);
  CHECK(bytes * plan.blocks_per_sm + 1024 * plan.blocks_per_sm <= limits.shared_per_sm);
  if (cuda::nvrtc_available()) {
    GpuProgram program = generate_cuda(q, plan, stats_of(q));
    CHECK(program.source.find(fmt::format("__launch_bounds__(128, {}) tally_scan",
                                          plan.blocks_per_sm)) != std::string::npos);
    // The Scan declares the buffer the plan sized.
    CHECK(program.source.find(fmt::format("u8 thread_cells[{}]", bytes)) != std::string::npos);
  }
}

TEST_CASE("thread-table grid: tables over the static 48 KB a block stay in registers") {
  // 14 slots (2 x 7 key values) x 5 sums of 64 bits and a count: 14 x 44 bytes x 128
  // threads > 48 KB. The sums are negative, so none shares a packed word.
  BoundSelect q = test::bind_first(
      grid_db(),
      "SELECT l_linestatus, l_linenumber, SUM(l_extendedprice * -1), SUM(l_extendedprice * "
      "-2), SUM(l_extendedprice * -3), SUM(l_extendedprice * -4), SUM(l_extendedprice * -5) "
      "FROM lineitem GROUP BY l_linestatus, l_linenumber");
  GpuPlan plan = test::plan_bound(grid_db(), q, GpuStrategy::ThreadPrivate);
  CHECK(plan.strategy == GpuStrategy::ThreadPrivate);
  CHECK_FALSE(plan.shared_thread_tables);
  CHECK(plan.blocks_per_sm == 0);
}

TEST_CASE("thread-table grid: tables of one or two slots are in shared memory") {
  // The register scan waits on each row's loads before the next row's (2 groups, H200, 2^27
  // rows: 0.287 ms against 0.102 in shared memory; TPC-H Q6 at SF 10: 0.32 against 0.18).
  for (const char* sql :
       {"SELECT l_linestatus, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY l_linestatus",
        "SELECT l_linenumber % 1 AS z, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY z",
        "SELECT COUNT(*), SUM(l_quantity) FROM lineitem WHERE l_discount > 0.05"}) {
    INFO(sql);
    GpuPlan plan = test::plan_bound(grid_db(), test::bind_first(grid_db(), sql), GpuStrategy::Auto);
    CHECK(plan.strategy == GpuStrategy::ThreadPrivate);
    CHECK(plan.shared_thread_tables);
    CHECK(plan.block == 128);
  }
}

}  // namespace
}  // namespace tally
