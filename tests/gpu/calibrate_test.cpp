// `tally calibrate` on the GPU in hand (runtime/session/calibrate.h): a small calibration
// measures every strategy that can run each group count, the profile it writes reads back,
// and queries planned with it (auto then follows the measured rates) give the CPU engine's
// results.
#include "runtime/session/calibrate.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "runtime/gpu/device_rates_file.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/database.h"
#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"

namespace tally::cuda::test {
namespace {

Result run(Database& db, const std::string& sql, DeviceChoice device) {
  ExecOptions options;
  options.device = device;
  std::optional<Result> last;
  db.execute_script(sql, options, [&](const StatementOutcome& o) {
    if (o.result) last = o.result;
  });
  REQUIRE(last.has_value());
  return *last;
}

}  // namespace

TEST_CASE("gpu calibrate: measures the strategies, writes a profile, auto follows it") {
  Database db;
  db.put_table(generate_atable(1u << 20, 1u << 12, 0, 5));
  CalibrateOptions options;
  options.groups = {1, 16, 256, 4096};
  options.repetitions = 1;
  int lines = 0;
  options.progress = [&](const std::string&) { ++lines; };
  GpuEngine engine;
  const StrategyRates rates = calibrate_strategies(engine, db, "atable", options);
  CHECK(rates.rows == (1u << 20));
  CHECK(rates.read_bytes_per_s > 0);
  CHECK(rates.device == engine.device_name());
  // Direct and hash run every group count; thread only small ones.
  REQUIRE(rates.points.count("direct") == 1);
  CHECK(rates.points.at("direct").size() == 4);
  CHECK(rates.points.at("hash").size() == 4);
  CHECK(rates.points.at("thread").front().groups == 1);
  for (const auto& [strategy, points] : rates.points) {
    for (const RatePoint& p : points) CHECK(p.rows_per_s > 0);
  }
  CHECK(lines > 10);

  const auto path = std::filesystem::temp_directory_path() / "tally_calibrate_test.profile";
  write_strategy_rates(path, rates);
  auto back = read_strategy_rates(path);
  REQUIRE(back != nullptr);
  CHECK(back->points.size() == rates.points.size());
  std::filesystem::remove(path);

  // Plans with the profile, run by the engine: the CPU's results.
  DeviceLimits limits = engine.limits();
  limits.rates = back;
  for (uint64_t k : {1ull, 16ull, 256ull, 4096ull}) {
    const std::string sql =
        "SELECT col1 % " + std::to_string(k) + " AS g, COUNT(*), SUM(col2) FROM atable GROUP BY 1";
    BoundSelect query = tally::test::bind_first(db, sql);
    GpuPlan plan = tally::test::plan_bound(db, query, GpuStrategy::Auto, limits);
    INFO(sql);
    CHECK(plan.reason.find("device profile") != std::string::npos);
    GpuRunOptions run_options;
    run_options.strategy = plan.strategy;
    Result gpu =
        engine.run(query, *db.table("atable"), {}, std::make_shared<StringHeap>(), run_options);
    CHECK(tally::test::result_difference(run(db, sql, DeviceChoice::Cpu), gpu, {}) == "");
  }
}

}  // namespace tally::cuda::test
