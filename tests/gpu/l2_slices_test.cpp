// compiler/plan/l2_slices.h on the GPU: a Direct plan whose Scan runs once per slice of its
// table (each pass merging only its slice's rows) gives the CPU engine's results, with packed
// and unpacked states, NULL keys, two keys, a filter, DISTINCT and a second pass. The tables
// are small, so the tests plan as if L2 were small enough to slice them into about 4 passes.
#include "compiler/plan/l2_slices.h"

#include <doctest/doctest.h>

#include <optional>

#include "compiler/bind/binder.h"
#include "compiler/parse/parser.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/storage/scan_stats.h"
#include "tests/gpu/strategy_compare.h"

namespace tally {
namespace {

Database& sliced_db() {
  static Database* db = [] {
    auto* d = new Database();
    ExecOptions cpu;
    cpu.device = DeviceChoice::Cpu;
    d->execute_script(
        "CREATE TABLE s (k INTEGER, kn INTEGER, k2 INTEGER, v INTEGER, big BIGINT, d INTEGER, "
        "x DOUBLE);"
        "INSERT INTO s SELECT range * 7919 % 16384, CASE WHEN range % 11 = 0 THEN NULL ELSE "
        "range * 31 % 4096 END, range % 7, range % 1000, range * 2654435761 % 4000000000, "
        "range % 37, range * 0.5 FROM range(120000)",
        cpu, [](const StatementOutcome&) {});
    return d;
  }();
  return *db;
}

Result on_cpu(const std::string& sql) {
  ExecOptions options;
  options.device = DeviceChoice::Cpu;
  std::optional<Result> last;
  sliced_db().execute_script(sql, options, [&](const StatementOutcome& o) {
    if (o.result) last = o.result;
  });
  REQUIRE(last.has_value());
  return *last;
}

BoundSelect bind(const std::string& sql) {
  auto statements = parse_script(sql);
  return bind_select(std::get<ast::SelectStmt>(statements[0].body), sliced_db(), 0);
}

// An L2 a third of which holds a quarter of the query's Direct table.
uint64_t quarter_table_l2(const BoundSelect& query) {
  const Table& table = *sliced_db().table(query.table);
  const std::vector<ColumnStats> stats = scan_stats(query, table);
  GpuCompileOptions options;
  options.strategy = GpuStrategy::Direct;
  const GpuPlan plan = plan_for(query, stats, table.rows(), options);
  return 3 * plan.slots * merged_bytes_per_slot(plan, query, stats) / 4;
}

}  // namespace

TEST_CASE("gpu l2 slices: a Direct table scanned once per slice gives the CPU engine's results") {
  const char* const queries[] = {
      "SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k ORDER BY k",
      "SELECT k, COUNT(*), SUM(big), MIN(v), MAX(big), AVG(x) FROM s GROUP BY k ORDER BY k",
      "SELECT kn, COUNT(*), SUM(v), COUNT(DISTINCT d) FROM s GROUP BY kn ORDER BY kn",
      "SELECT k2, kn, COUNT(*), SUM(v) FROM s WHERE v < 900 GROUP BY k2, kn ORDER BY 1, 2",
      "SELECT k, COUNT(*), STDDEV_SAMP(x), SUM(v) FROM s GROUP BY k ORDER BY k"};
  for (const char* sql : queries) {
    INFO(sql);
    const BoundSelect query = bind(sql);
    GpuEngine engine;
    GpuRunOptions options;
    options.strategy = GpuStrategy::Direct;
    options.plan_l2_bytes = quarter_table_l2(query);
    const Result cpu = on_cpu(sql);
    // From device memory, then streamed from host memory: each batch runs the first pass once
    // a slice and the second pass (STDDEV_SAMP of a DOUBLE) once.
    for (const Placement placement : {Placement::Auto, Placement::Host}) {
      options.placement = placement;
      options.batch_rows = placement == Placement::Host ? 30000 : 0;
      GpuRunReport report;
      const Result gpu = engine.run(query, *sliced_db().table("s"), {},
                                    std::make_shared<StringHeap>(), options, &report);
      INFO(report.plan);
      CHECK(report.plan.find("passes over slices of") != std::string::npos);
      CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
    }
  }
}

TEST_CASE("gpu l2 slices: auto keeps one pass where the table fits L2") {
  const std::string sql = "SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k ORDER BY k";
  GpuEngine engine;
  GpuRunOptions options;
  GpuRunReport report;
  const Result gpu = engine.run(bind(sql), *sliced_db().table("s"), {},
                                std::make_shared<StringHeap>(), options, &report);
  CHECK(report.plan.find("passes over slices") == std::string::npos);
  const Result cpu = on_cpu(sql);
  CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
}

}  // namespace tally
