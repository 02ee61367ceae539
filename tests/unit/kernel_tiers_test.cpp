// Tiered kernels (runtime/compile/kernel_tiers.h): a plan no cache holds runs on the quick
// Scan's binary while the unrolled one compiles in the background; a plan cache's quick entry
// gives way to the unrolled program once that has compiled; a Scan that does not unroll has
// one tier. No GPU needed: the compiles are what a GPU run does before it launches.
#include "runtime/compile/kernel_tiers.h"

#include <doctest/doctest.h>

#include <string>

#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/planner_fixture.h"

namespace tally {
namespace {

Database& tiers_db() {
  static Database* db = test::make_planner_db("");
  return *db;
}

// Few groups (thread tables in shared memory): its Scan unrolls a block's rows in chunks.
const char* const kUnrolling =
    "SELECT l_linenumber, COUNT(*), MAX(l_quantity * 3) FROM lineitem WHERE l_suppkey <> 17 "
    "GROUP BY l_linenumber";

const char* const kOtherUnrolling =
    "SELECT l_linenumber, COUNT(*), MAX(l_quantity * 3) FROM lineitem WHERE l_suppkey <> 18 "
    "GROUP BY l_linenumber";

struct Planned {
  BoundSelect query;
  std::vector<ColumnStats> stats;
  GpuPlan plan;
  std::string unrolled;  // the source of the plan as planned
};

Planned planned(const std::string& sql, GpuStrategy strategy) {
  Database& db = tiers_db();
  Planned p{test::bind_first(db, sql), {}, {}, {}};
  p.stats = scan_stats(p.query, *db.table(p.query.table));
  p.plan = test::plan_bound(db, p.query, strategy);
  p.unrolled = generate_cuda(p.query, p.plan, p.stats).source;
  return p;
}

bool unrolls(const std::string& source) { return source.find("LaneChunk") != std::string::npos; }

const std::string kArch = default_gpu_target().arch;

TEST_CASE("kernel tiers: quick kernels first and then the unrolled ones from the plan cache") {
  if (!cuda::nvrtc_available()) return;
  const Planned p = planned(kUnrolling, GpuStrategy::Auto);
  REQUIRE(unrolls(p.unrolled));
  BackgroundCompiler compiler;
  GpuPlanCache plans;
  const KernelTierChoice choice{KernelTiers::QuickFirst, &compiler};

  GpuCompilation first = compile_in_tiers(p.query, p.stats, p.plan, kArch, &plans, choice);
  CHECK(first.quick);
  REQUIRE(first.binary != nullptr);
  CHECK(!first.binary->image.empty());
  CHECK(!unrolls(first.program->source));
  CHECK(first.program->args.size() > 0);

  compiler.wait_idle();
  CHECK(!compiler.failed(p.unrolled, kArch));
  GpuCompilation second = compile_in_tiers(p.query, p.stats, p.plan, kArch, &plans, choice);
  CHECK(!second.quick);
  CHECK(second.source == BinarySource::PlanCache);
  CHECK(second.program->source == p.unrolled);
  CHECK(second.binary == binary_in_memory(p.unrolled, kArch));

  GpuCompilation third = compile_in_tiers(p.query, p.stats, p.plan, kArch, &plans, choice);
  CHECK(!third.quick);
  CHECK(third.program->source == p.unrolled);
  CHECK(plans.size() == 1);
  CHECK(plans.hits() == 2);
}

TEST_CASE("kernel tiers: quick kernels turned off after a quick run give the unrolled ones") {
  if (!cuda::nvrtc_available()) return;
  // Another constant: its unrolled binary is in no cache when the quick run stores its entry.
  const Planned p = planned(
      "SELECT l_linenumber, COUNT(*), MAX(l_quantity * 3) FROM lineitem WHERE l_suppkey <> 19 "
      "GROUP BY l_linenumber",
      GpuStrategy::Auto);
  REQUIRE(unrolls(p.unrolled));
  BackgroundCompiler compiler;
  GpuPlanCache plans;
  GpuCompilation quick = compile_in_tiers(p.query, p.stats, p.plan, kArch, &plans,
                                          {KernelTiers::QuickFirst, &compiler});
  CHECK(quick.quick);
  // Off, whether or not the background compile has finished: never the quick entry.
  for (int run = 0; run < 2; ++run) {
    GpuCompilation off = compile_in_tiers(p.query, p.stats, p.plan, kArch, &plans, {});
    CHECK(!off.quick);
    CHECK(off.program->source == p.unrolled);
    REQUIRE(off.binary != nullptr);
    CHECK(!off.binary->image.empty());
  }
  CHECK(plans.size() == 1);
  compiler.wait_idle();
}

TEST_CASE("kernel tiers: without a plan cache and with one tier where the Scan does not unroll") {
  if (!cuda::nvrtc_available()) return;
  BackgroundCompiler compiler;
  const KernelTierChoice choice{KernelTiers::QuickFirst, &compiler};
  // Another constant, another source: nothing compiled it in this process yet.
  const Planned p = planned(kOtherUnrolling, GpuStrategy::Auto);
  REQUIRE(unrolls(p.unrolled));
  GpuCompilation first = compile_in_tiers(p.query, p.stats, p.plan, kArch, nullptr, choice);
  CHECK(first.quick);
  CHECK(first.source == BinarySource::Nvrtc);
  compiler.wait_idle();
  GpuCompilation second = compile_in_tiers(p.query, p.stats, p.plan, kArch, nullptr, choice);
  CHECK(!second.quick);
  CHECK(second.source == BinarySource::MemoryCache);
  CHECK(second.program->source == p.unrolled);

  // A hash table in global memory: its Scan reads row by row already, so there is no quick tier.
  const Planned hash = planned(kUnrolling, GpuStrategy::Hash);
  CHECK(!unrolls(hash.unrolled));
  GpuCompilation only = compile_in_tiers(hash.query, hash.stats, hash.plan, kArch, nullptr, choice);
  CHECK(!only.quick);
  CHECK(only.program->source == hash.unrolled);
  compiler.wait_idle();

  // QuickOnly keeps the quick Scan even with the unrolled binary in memory.
  GpuCompilation forced =
      compile_in_tiers(p.query, p.stats, p.plan, kArch, nullptr, {KernelTiers::QuickOnly, nullptr});
  CHECK(forced.quick);
  CHECK(!unrolls(forced.program->source));
  CHECK(forced.program->source == first.program->source);
  // Unrolled, and QuickFirst without a compiler: the plan's own kernels.
  for (const KernelTierChoice& unrolled :
       {KernelTierChoice{}, KernelTierChoice{KernelTiers::QuickFirst, nullptr}}) {
    GpuCompilation c = compile_in_tiers(p.query, p.stats, p.plan, kArch, nullptr, unrolled);
    CHECK(!c.quick);
    CHECK(c.program->source == p.unrolled);
  }
}

}  // namespace
}  // namespace tally
