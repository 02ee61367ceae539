// Quick kernels (runtime/compile/kernel_tiers.h) on a GPU: the quick Scan of every query in
// queries/, under every strategy, gives the CPU engine's result; a new statement under
// quick_kernels = on runs on them, and once its unrolled kernels have compiled, on those.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/query_files.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/text_check.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

TEST_CASE("gpu kernel tiers: quick kernels of every query in queries/ match the CPU engine") {
  Database db;
  db.put_table(generate_lineitem(0.05, 11));
  db.put_table(generate_orders_table(50000, 1000, 11));
  db.put_table(generate_atable(200000, 1u << 20, 0, 11));
  db.put_table(generate_nulls_table(60000, 0.2, 11));
  for (const auto& qc : test::query_files()) {
    const std::string sql = test::query_file(qc.name);
    ExecOptions options;
    options.parameters = qc.params;
    options.device = DeviceChoice::Cpu;
    const Result cpu = *test::last_outcome(db, sql, options).result;
    options.device = DeviceChoice::Gpu;
    options.kernel_tiers = KernelTiers::QuickOnly;
    for (const char* strategy : {"auto", "thread", "block", "direct", "hash"}) {
      INFO(qc.name << " --strategy " << strategy);
      options.strategy = strategy;
      try {
        const StatementOutcome gpu = test::last_outcome(db, sql, options);
        CHECK(gpu.result->device.rfind("gpu", 0) == 0);
        CHECK(contains(gpu.timings.gpu, "(quick kernels)"));
        CHECK(test::result_difference(cpu, *gpu.result, test::gpu_tolerances(cpu)) == "");
      } catch (const Error& e) {
        INFO(e.what());
        CHECK(e.kind() == ErrorKind::Unsupported);  // a strategy that cannot take the shape
        CHECK(std::string(strategy) != "auto");
      }
    }
  }
}

// Constants no other test uses, so that no cache holds its kernels when the case starts.
const char* const kNewStatement =
    "SELECT zip % 13 AS z, COUNT(*), SUM(chargedamount), MAX(tax) FROM orders "
    "WHERE zip <> 4177 GROUP BY z ORDER BY z";

TEST_CASE(
    "gpu kernel tiers: a new statement runs on quick kernels until its unrolled ones compile") {
  Database db;
  db.put_table(generate_orders_table(20000, 500, 23));
  const std::vector<std::string> expected =
      test::sorted_row_texts(test::run_sql(db, kNewStatement));
  ExecOptions options;
  options.device = DeviceChoice::Gpu;
  options.kernel_tiers = KernelTiers::QuickFirst;
  options.emit_cuda = true;

  const StatementOutcome first = test::last_outcome(db, kNewStatement, options);
  CHECK(first.result->device.rfind("gpu", 0) == 0);
  CHECK(contains(first.timings.gpu, "(quick kernels)"));
  CHECK(!contains(first.cuda, "LaneChunk"));
  CHECK(test::sorted_row_texts(*first.result) == expected);

  db.wait_for_compiles();
  const StatementOutcome second = test::last_outcome(db, kNewStatement, options);
  CHECK(!contains(second.timings.gpu, "quick kernels"));
  // The session's plans for this text (AdHocPlans), or this process's memory.
  CHECK((contains(second.timings.gpu, "(plan cache)") ||
         contains(second.timings.gpu, "(memory cache)")));
  CHECK(contains(second.cuda, "LaneChunk"));
  CHECK(test::sorted_row_texts(*second.result) == expected);

  // Off: the unrolled kernels before the first run, from the caches now.
  options.kernel_tiers = KernelTiers::Unrolled;
  const StatementOutcome unrolled = test::last_outcome(db, kNewStatement, options);
  CHECK(!contains(unrolled.timings.gpu, "quick kernels"));
  CHECK(test::sorted_row_texts(*unrolled.result) == expected);
}

}  // namespace
}  // namespace tally
