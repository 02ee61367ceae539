// compiler/plan/slot_spread.h: which Direct plans spread their slots over the table, that the
// spread is a permutation the Finalizer's inverse undoes, and that the kernels doing it compile
// (tests/gpu/slot_spread_test.cpp runs them against the CPU engine). No GPU needed.
#include "compiler/plan/slot_spread.h"

#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include "compiler/codegen/gpu_program.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/text_check.h"

namespace tally {
namespace {

// 2^18 keys scattered over the rows, as integers and as dictionary-coded strings.
Database& spread_db() {
  static Database* db = test::make_planner_db(
      "CREATE TABLE s (k INTEGER, v INTEGER, sk VARCHAR);"
      "INSERT INTO s SELECT range * 7919 % 262144, range % 1000, "
      "CAST(range * 7919 % 262144 AS VARCHAR) FROM range(524288)");
  return *db;
}

GpuPlan sampled_plan(const std::string& sql) {
  const BoundSelect q = test::bind_first(spread_db(), sql);
  const Table& table = *spread_db().table("s");
  GpuCompileOptions options;
  options.table = &table;
  return plan_for(q, scan_stats(q, table), table.rows(), options);
}

}  // namespace

TEST_CASE("slot spread: the spread is a permutation and the inverse undoes it") {
  for (uint64_t slots : {65537ull, 131072ull, 1000000ull, 1048573ull, 6000000ull}) {
    GpuPlan plan;
    plan.strategy = GpuStrategy::Direct;
    plan.slots = slots;
    plan = with_spread_slots(plan, KeyLocality{slots, 1024, 1000});
    REQUIRE(plan.spread_multiplier != 0);
    CHECK(std::gcd(plan.spread_multiplier, slots) == 1);
    const uint64_t inverse = spread_inverse(plan);
    std::vector<bool> seen(slots, false);
    uint64_t distinct = 0, undone = 0;
    for (uint64_t key = 0; key < slots; ++key) {
      const uint64_t slot = key * plan.spread_multiplier % slots;
      distinct += seen[slot] ? 0 : 1;
      seen[slot] = true;
      undone += slot * inverse % slots == key ? 1 : 0;
    }
    CHECK(distinct == slots);
    CHECK(undone == slots);
    // Neighbours land on different 128-byte lines of 8-byte slots.
    CHECK(plan.spread_multiplier >= 16);
    CHECK(slots - plan.spread_multiplier >= 16);
  }
}

TEST_CASE("slot spread: scattered keys spread and sorted keys keep their neighbours") {
  const GpuPlan scattered = sampled_plan("SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k");
  INFO(describe_plan(scattered));
  REQUIRE(scattered.strategy == GpuStrategy::Direct);
  CHECK(scattered.spread_multiplier != 0);
  CHECK(contains(scattered.considered, "spread slots: taken"));
  CHECK(contains(describe_plan(scattered), "(neighbours spread)"));
  // Sorted keys: the rows in flight span a sliver of the table (l_orderkey at SF 10: 2 M of
  // 60 M slots), so their merges already coalesce on shared lines.
  GpuPlan direct;
  direct.strategy = GpuStrategy::Direct;
  direct.slots = 60000000;
  direct.rows = 60000000;
  const GpuPlan sorted = with_spread_slots(direct, KeyLocality{2000000, 1024, 1024});
  CHECK(sorted.spread_multiplier == 0);
  CHECK(contains(sorted.considered,
            "spread slots: not taken (the keys of 2097152 consecutive rows "
            "span 2000000 of 60000000 slots)"));
  // Without the table (tally compile of a statement alone) nothing is sampled.
  const BoundSelect q = test::bind_first(spread_db(), "SELECT k, COUNT(*) FROM s GROUP BY k");
  const Table& table = *spread_db().table("s");
  CHECK(plan_for(q, scan_stats(q, table), table.rows(), GpuCompileOptions{}).spread_multiplier ==
        0);
}

// A string column's slot is its dictionary code: the sample reads the codes, so scattered
// string keys spread as integer ones do (Zipf 1.0 string keys over 2^19 codes ran 2.05x their
// uniform time on an H200 without it).
TEST_CASE("slot spread: dictionary-coded string keys spread as integer keys do") {
  const GpuPlan plan = sampled_plan("SELECT sk, COUNT(*), SUM(v) FROM s GROUP BY sk");
  INFO(describe_plan(plan));
  REQUIRE(plan.strategy == GpuStrategy::Direct);
  CHECK(plan.keys[0].dictionary_column >= 0);
  CHECK(plan.spread_multiplier != 0);
  CHECK(contains(plan.considered, "spread slots: taken"));
}

TEST_CASE("slot spread: the Scan spreads the slot and the Finalizer undoes it") {
  const BoundSelect q =
      test::bind_first(spread_db(), "SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k");
  const GpuPlan plan = sampled_plan("SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k");
  REQUIRE(plan.spread_multiplier != 0);
  const std::string source = generate_cuda(q, plan, scan_stats(q, *spread_db().table("s"))).source;
  CHECK(contains(source, fmt::format("const u64 slot = spread_slot(mr.slot, {}ull, 262144ull);",
                                plan.spread_multiplier)));
  CHECK(contains(source, fmt::format("const u64 encoded = spread_slot(slot, {}ull, 262144ull);",
                                spread_inverse(plan))));
  if (!cuda::nvrtc_available()) return;
  CHECK(!cuda::compile_cuda(source, "slot_spread.cu").image.empty());
}

}  // namespace tally
