// The background compiler of adaptive compilation, without a GPU: it puts a program into the
// memory cache, where a later lookup finds it, once however often it is asked, finishing its
// queue before it goes; a failed compile is dropped and remembered (NVRTC runs here, sm_90).
#include "runtime/compile/background_compiler.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

// A program no other test generates (the constants), so that no cache holds it yet.
struct NewProgram {
  GpuPlan plan;
  std::vector<ColumnStats> stats;
  GpuProgram program;
};
NewProgram new_program(Database& db) {
  test::run_script(db,
                   "CREATE TABLE adaptive_t (k INTEGER, v BIGINT);"
                   "INSERT INTO adaptive_t VALUES (1, 10), (2, 20), (1, 5), (3, 7);");
  BoundSelect query = test::bind_first(
      db, "SELECT k, SUM(v * 4127), COUNT(*) FROM adaptive_t WHERE v <> 4129 GROUP BY k");
  NewProgram p;
  p.plan = test::plan_bound(db, query, GpuStrategy::Auto);
  p.stats = scan_stats(query, *db.table("adaptive_t"));
  p.program = generate_cuda(query, p.plan, p.stats);
  return p;
}

TEST_CASE("background compiler: fills the memory cache once") {
  if (!cuda::nvrtc_available()) return;
  Database db;
  const NewProgram p = new_program(db);
  const std::string arch = "sm_90";
  REQUIRE_FALSE(binary_cached(p.plan, p.stats, p.program, arch, nullptr));
  {
    BackgroundCompiler compiler;
    CHECK(compiler.enqueue(p.program.source, arch));
    // Queued or compiling (NVRTC takes tens of ms at least): not queued twice.
    CHECK_FALSE(compiler.enqueue(p.program.source, arch));
  }  // the destructor finishes the queue
  CHECK(binary_cached(p.plan, p.stats, p.program, arch, nullptr));
  // Another architecture's binary is another entry.
  CHECK_FALSE(binary_cached(p.plan, p.stats, p.program, "sm_80", nullptr));
}

TEST_CASE("background compiler: a failed compile is dropped and remembered") {
  if (!cuda::nvrtc_available()) return;
  GpuProgram bad;
  bad.source = "this is not CUDA;";
  BackgroundCompiler compiler;
  CHECK(compiler.enqueue(bad.source, "sm_90"));
  compiler.wait_idle();
  CHECK(compiler.failed(bad.source, "sm_90"));
  CHECK_FALSE(binary_cached(GpuPlan{}, {}, bad, "sm_90", nullptr));
}

}  // namespace
}  // namespace tally
