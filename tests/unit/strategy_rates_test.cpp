// The device profile of `tally calibrate` (compiler/plan/strategy_rates.h): its text round
// trip, damage reported with the line, log-log interpolation, and the planner's auto choice
// following measured rates where they apply and its own rules elsewhere. The measurement
// itself needs a GPU (tests/gpu/calibrate_test.cpp).
#include "compiler/plan/strategy_rates.h"

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "compiler/common/error.h"
#include "runtime/gpu/device_rates_file.h"
#include "tests/unit/support/planner_fixture.h"

namespace tally {
namespace {

StrategyRates sample_rates() {
  StrategyRates r;
  r.device = "NVIDIA Test GPU 80GB";
  r.rows = 1000;
  r.read_bytes_per_s = 3.0e12;
  r.add("thread", 1, 8e11);
  r.add("thread", 64, 1e11);
  r.add("block", 16, 5e11);
  r.add("block", 256, 4e9);
  r.add("direct", 1, 2e9);
  r.add("direct", 4096, 6e11);
  r.add("hash", 1, 1e9);
  r.add("hash", 4096, 1e10);
  return r;
}

Database& rates_db() {
  static Database* db = test::make_planner_db("");
  return *db;
}

GpuPlan plan_with(const std::string& sql, std::shared_ptr<const StrategyRates> rates) {
  DeviceLimits limits;
  limits.rates = std::move(rates);
  return test::plan_bound(rates_db(), test::bind_first(rates_db(), sql), GpuStrategy::Auto, limits);
}

}  // namespace

TEST_CASE("strategy rates: the profile's text reads back as written") {
  const StrategyRates r = sample_rates();
  const StrategyRates back = parse_strategy_rates(serialize_strategy_rates(r), "p");
  CHECK(back.device == r.device);
  CHECK(back.rows == r.rows);
  CHECK(back.read_bytes_per_s == doctest::Approx(r.read_bytes_per_s));
  REQUIRE(back.points.size() == 4);
  REQUIRE(back.points.at("block").size() == 2);
  CHECK(back.points.at("block")[1].groups == 256);
  CHECK(back.points.at("block")[1].rows_per_s == doctest::Approx(4e9));
}

TEST_CASE("strategy rates: log-log interpolation inside the measured groups only") {
  const StrategyRates r = sample_rates();
  // Halfway in log2(groups) between 16 and 256 is 64: the geometric mean of the rates.
  CHECK(*r.rate("block", 64) == doctest::Approx(std::sqrt(5e11 * 4e9)));
  CHECK(*r.rate("block", 16) == doctest::Approx(5e11));
  CHECK_FALSE(r.rate("block", 8).has_value());
  CHECK_FALSE(r.rate("block", 512).has_value());
  CHECK_FALSE(r.rate("nothing", 16).has_value());
}

TEST_CASE("strategy rates: a damaged profile names the file and the line") {
  auto message = [](const std::string& text) {
    try {
      parse_strategy_rates(text, "/tmp/x.profile");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Cache);
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(message("not a profile\n").find("/tmp/x.profile is damaged at line 1") !=
        std::string::npos);
  const std::string good = serialize_strategy_rates(sample_rates());
  CHECK(message(good + "rate block sixteen 1e9\n").find("at line 13") != std::string::npos);
  CHECK(message(good + "rate block 16 -5\n").find("damaged") != std::string::npos);
  CHECK(message("tally device profile 1\ndevice x\n").find("no measured rates") !=
        std::string::npos);
}

TEST_CASE("strategy rates: files are written whole and read back and a missing one is no error") {
  const auto dir = std::filesystem::temp_directory_path() / "tally_rates_test";
  std::filesystem::remove_all(dir);
  const auto path = dir / "sub" / "gpu.profile";
  CHECK(read_strategy_rates(path) == nullptr);
  write_strategy_rates(path, sample_rates());
  auto back = read_strategy_rates(path);
  REQUIRE(back != nullptr);
  CHECK(back->points.at("direct").size() == 2);
  CHECK_FALSE(std::filesystem::exists(path.string() + ".tmp"));
  std::ofstream(path) << "tally device profile 1\nrate block\n";
  CHECK_THROWS_AS(read_strategy_rates(path), Error);
  std::filesystem::remove_all(dir);
}

TEST_CASE("strategy rates: auto follows the measured rates where they apply") {
  auto rates = std::make_shared<StrategyRates>(sample_rates());
  rates->rows = rates_db().table("lineitem")->rows();
  // 3 x 2 = 6 groups: thread measures about 3.3e11 rows/s there (interpolated), direct and
  // hash far less, block nothing (its points start at 16).
  GpuPlan few =
      plan_with("SELECT l_returnflag, l_linestatus, COUNT(*) FROM lineitem GROUP BY 1, 2", rates);
  CHECK(few.strategy == GpuStrategy::ThreadPrivate);
  CHECK(few.reason.find("device profile") != std::string::npos);
  CHECK(few.considered.find("device profile:") != std::string::npos);
  // 2,526 ship dates: direct measured fastest at that count (block's rate falls past 256).
  GpuPlan dates =
      plan_with("SELECT l_shipdate, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1", rates);
  CHECK(dates.strategy == GpuStrategy::Direct);
  CHECK(dates.reason.find("NVIDIA Test GPU 80GB") != std::string::npos);
  // The same query without a profile: the built-in rules.
  GpuPlan rules =
      plan_with("SELECT l_shipdate, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1", nullptr);
  CHECK(rules.reason.find("device profile") == std::string::npos);
  // Far fewer rows than the calibration table: the rules again.
  auto big = std::make_shared<StrategyRates>(sample_rates());
  big->rows = rates->rows * 100;
  GpuPlan small =
      plan_with("SELECT l_shipdate, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1", big);
  CHECK(small.reason.find("device profile") == std::string::npos);
  // A forced strategy ignores the profile.
  DeviceLimits limits;
  limits.rates = rates;
  GpuPlan forced = test::plan_bound(
      rates_db(),
      test::bind_first(rates_db(), "SELECT l_shipdate, COUNT(*) FROM lineitem GROUP BY 1"),
      GpuStrategy::Hash, limits);
  CHECK(forced.strategy == GpuStrategy::Hash);
}

// Calibration forces block, which slices a domain past one block's table, so a profile whose
// block rate beats direct's there takes block in slices (SF 0.01's 60,000 order keys).
TEST_CASE("strategy rates: a measured block rate past one block's table takes slices") {
  auto rates = std::make_shared<StrategyRates>();
  rates->device = "NVIDIA Test GPU 80GB";
  rates->rows = rates_db().table("lineitem")->rows();
  rates->add("block", 16, 5e11);
  rates->add("block", 1u << 18, 2e11);
  rates->add("direct", 1, 2e9);
  rates->add("direct", 1u << 20, 1e11);
  const std::string sql = "SELECT l_orderkey, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1";
  const GpuPlan sliced = plan_with(sql, rates);
  INFO(describe_plan(sliced));
  CHECK(sliced.strategy == GpuStrategy::Block);
  CHECK(sliced.sliced());
  CHECK(sliced.reason.find("device profile") != std::string::npos);
  // Where direct measured faster, direct.
  auto slower = std::make_shared<StrategyRates>(*rates);
  slower->points.erase("block");
  slower->add("block", 16, 5e11);
  slower->add("block", 1u << 18, 1e10);
  CHECK(plan_with(sql, slower).strategy == GpuStrategy::Direct);
}

}  // namespace tally
