// SET grouping_sets = 'auto': one pass or a pass per set, chosen from the plans of both ways
// (compiler/plan/grouping_sets_choice.h, runtime/compile/grouping_sets_plans.h). No GPU: the
// plans are made from the statistics of small tables whose key domains are those of TPC-H
// lineitem at SF 10 (the flags, 7 ship modes, about 2,500 ship dates, 100,000 suppliers),
// planned for SF 10's row count, where bench/RESULTS.md "grouping_sets" measured both ways on
// an H100.
#include "compiler/plan/grouping_sets_choice.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/grouping_sets.h"
#include "runtime/compile/grouping_sets_plans.h"
#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/text_check.h"

namespace tally {
namespace {

constexpr uint64_t kSf10Rows = 59'986'052;
constexpr const char* kAggregates =
    "COUNT(*), SUM(l_quantity), SUM(l_extendedprice), MIN(l_shipdate)";

// lineitem at SF 0.01, and `suppliers`: its supplier keys spread over 1,000 .. 100,000.
Database& choice_db() {
  static Database* db = test::make_planner_db(
      "CREATE TABLE suppliers AS SELECT l_suppkey * 1000 AS l_suppkey, l_shipmode, l_quantity, "
      "l_extendedprice, l_shipdate FROM lineitem");
  return *db;
}

struct Ways {
  GpuPlan one_pass;
  std::vector<GpuPlan> sets;
};

// Both ways' plans for `sql` as the GPU engine makes them for SF 10's rows on `limits`' device.
Ways plan_ways(const std::string& sql, const DeviceLimits& limits = DeviceLimits{}) {
  Database& db = choice_db();
  const BoundSelect query = test::bind_first(db, sql);
  TablePtr table = db.table(query.table);
  GpuCompileOptions options;
  options.limits = limits;
  auto plan = [&](const BoundSelect& q) {
    return plan_for(q, scan_stats(q, *table), kSf10Rows, options);
  };
  Ways ways{plan(one_pass_grouping_query(query)), {}};
  for (const BoundSelect& set : split_grouping_sets(query)) ways.sets.push_back(plan(set));
  return ways;
}

std::string grouped(const std::string& table, const std::string& form) {
  return "SELECT " + std::string(kAggregates) + " FROM " + table + " GROUP BY " + form;
}

// Each strategy measured at one rate (hash at half direct's) over 1 .. `most` groups, on 2^26
// rows.
std::shared_ptr<const StrategyRates> flat_rates(double thread, double block, double direct,
                                                uint64_t most = uint64_t{1} << 24) {
  auto rates = std::make_shared<StrategyRates>();
  rates->device = "NVIDIA Test GPU";
  rates->rows = uint64_t{1} << 26;
  for (uint64_t groups : {uint64_t{1}, most}) {
    rates->add("thread", groups, thread);
    rates->add("block", groups, block);
    rates->add("direct", groups, direct);
    rates->add("hash", groups, direct / 2);
  }
  return rates;
}

}  // namespace

TEST_CASE("grouping sets auto: one pass where its plan keeps the groups on chip") {
  // The measured wins of one pass: ROLLUP of two flags, CUBE of three.
  for (const char* form :
       {"ROLLUP (l_returnflag, l_linestatus)", "CUBE (l_returnflag, l_linestatus, l_shipmode)"}) {
    INFO(form);
    const Ways ways = plan_ways(grouped("lineitem", form));
    CHECK(ways.one_pass.strategy == GpuStrategy::Block);
    const GroupingSetsChoice choice = choose_grouping_sets_way(ways.one_pass, ways.sets, nullptr);
    CHECK(choice.one_pass);
    CHECK(contains(choice.reason, "the one-pass plan keeps its groups on chip: block, key domain"));
    CHECK(contains(choice.ways, "  one pass: block, key domain "));
    CHECK(contains(choice.ways, "  set 1: thread, key domain "));
  }
  // Dropped keys take a NULL digit: 4 x 3 digits x 3 sets.
  const Ways rollup = plan_ways(grouped("lineitem", "ROLLUP (l_returnflag, l_linestatus)"));
  CHECK(plan_key_domain(rollup.one_pass) == 36u);
}

TEST_CASE("grouping sets auto: per set where one pass goes to global memory and a set would not") {
  // The measured losses of one pass: 5.4x and 9.1x.
  const Ways suppliers =
      plan_ways(grouped("suppliers", "GROUPING SETS ((l_suppkey), (l_shipmode), ())"));
  CHECK(suppliers.one_pass.strategy == GpuStrategy::Direct);
  CHECK(plan_key_domain(suppliers.one_pass) == (99'001u + 1) * (7 + 1) * 3);
  REQUIRE(suppliers.sets.size() == 3);
  CHECK(suppliers.sets[0].strategy == GpuStrategy::Direct);
  CHECK(suppliers.sets[1].strategy == GpuStrategy::ThreadPrivate);
  const GroupingSetsChoice by_supplier =
      choose_grouping_sets_way(suppliers.one_pass, suppliers.sets, nullptr);
  CHECK_FALSE(by_supplier.one_pass);
  CHECK(by_supplier.reason ==
        "the one-pass plan keeps its groups in global memory or in slices: direct, key domain "
        "2376048; set 1's plan keeps its own on chip: thread");

  // Its one pass now fits block tables in slices: it reads the rows once a slice.
  const Ways dates = plan_ways(grouped("lineitem", "ROLLUP (l_shipdate, l_returnflag)"));
  CHECK(dates.one_pass.strategy == GpuStrategy::Block);
  CHECK(dates.one_pass.sliced());
  const GroupingSetsChoice by_date = choose_grouping_sets_way(dates.one_pass, dates.sets, nullptr);
  CHECK_FALSE(by_date.one_pass);
  CHECK(contains(by_date.reason, "in global memory or in slices: block"));
}

TEST_CASE("grouping sets auto: one pass where no set's plan keeps its groups on chip either") {
  const Ways ways =
      plan_ways(grouped("suppliers", "GROUPING SETS ((l_suppkey), (l_suppkey, l_shipmode))"));
  for (const GpuPlan& set : ways.sets) CHECK(set.strategy == GpuStrategy::Direct);
  const GroupingSetsChoice choice = choose_grouping_sets_way(ways.one_pass, ways.sets, nullptr);
  CHECK(choice.one_pass);
  CHECK(contains(choice.reason, "no set's plan keeps its groups on chip either"));
}

TEST_CASE("grouping sets auto: a device profile's estimates decide where it rates every pass") {
  DeviceLimits limits;
  // Block tables measured as fast as registers at 2e11 rows/s: the flags' one pass (block, one
  // read) 0.300 ms against three thread passes of 0.200 ms.
  limits.rates = flat_rates(3e11, 2e11, 2e10);
  const std::string flags = grouped("lineitem", "ROLLUP (l_returnflag, l_linestatus)");
  Ways ways = plan_ways(flags, limits);
  GroupingSetsChoice choice =
      choose_grouping_sets_way(ways.one_pass, ways.sets, limits.rates.get());
  CHECK(choice.one_pass);
  CHECK(choice.reason ==
        "the device profile of NVIDIA Test GPU estimates one pass at 0.300 ms and a pass per set "
        "at 0.600 ms");
  CHECK(contains(choice.ways, "  one pass: block, key domain 36, about 0.300 ms (device profile)"));
  // Block tables measured slow: the profile takes per set where the rule would not.
  limits.rates = flat_rates(3e11, 5e10, 2e10);
  ways = plan_ways(flags, limits);
  choice = choose_grouping_sets_way(ways.one_pass, ways.sets, limits.rates.get());
  CHECK_FALSE(choice.one_pass);
  CHECK(contains(choice.reason, "one pass at 1.200 ms and a pass per set at 0.600 ms"));
  CHECK(choose_grouping_sets_way(ways.one_pass, ways.sets, nullptr).one_pass);
}

TEST_CASE("grouping sets auto: a global one pass is estimated at one merge a row per set") {
  DeviceLimits limits;
  limits.rates = flat_rates(3e11, 2e11, 2e10);
  const Ways ways =
      plan_ways(grouped("suppliers", "GROUPING SETS ((l_suppkey), (l_shipmode), ())"), limits);
  const GroupingSetsChoice choice =
      choose_grouping_sets_way(ways.one_pass, ways.sets, limits.rates.get());
  // One pass: 3 x 59,986,052 direct merges at 2e10 a second; per set 0.3 + 0.2 + 0.2 ms, the
  // supplier set's 99,001 keys in block slices (the profile rates block at every count).
  CHECK_FALSE(choice.one_pass);
  CHECK(contains(choice.reason, "one pass at 8.998 ms and a pass per set at 0.700 ms"));
  CHECK(contains(choice.ways, "set 0: block, key domain 99001, about 0.300 ms (device profile)"));
  CHECK(contains(choice.ways, "about 8.998 ms (device profile, 3 merges a row)"));
}

TEST_CASE("grouping sets auto: the rule decides where the profile lacks a rate or rows") {
  DeviceLimits limits;
  // Rates up to 4,096 groups only: the suppliers' one pass is not rated (nor planned by them).
  limits.rates = flat_rates(3e11, 5e10, 2e10, 4096);
  const Ways ways =
      plan_ways(grouped("suppliers", "GROUPING SETS ((l_suppkey), (l_shipmode), ())"), limits);
  GroupingSetsChoice choice =
      choose_grouping_sets_way(ways.one_pass, ways.sets, limits.rates.get());
  CHECK_FALSE(choice.one_pass);
  CHECK(contains(choice.reason, "in global memory or in slices: direct"));
  CHECK(contains(choice.ways, "  one pass: direct, key domain 2376048\n"));
  CHECK(contains(choice.ways, "  set 2: thread, key domain 1, about 0.200 ms (device profile)\n"));
  // Measured on far more rows than these: its rates say little of them.
  const Ways flags = plan_ways(grouped("lineitem", "ROLLUP (l_returnflag, l_linestatus)"));
  auto big = std::make_shared<StrategyRates>(*flat_rates(3e11, 5e10, 2e10));
  big->rows = kSf10Rows * 20;
  choice = choose_grouping_sets_way(flags.one_pass, flags.sets, big.get());
  CHECK(choice.one_pass);
  CHECK(contains(choice.reason, "on chip"));
  CHECK_FALSE(contains(choice.ways, "device profile"));
}

TEST_CASE("grouping sets auto: a way the GPU cannot plan leaves the other") {
  Database& db = choice_db();
  const BoundSelect query =
      test::bind_first(db, grouped("lineitem", "ROLLUP (l_returnflag, l_linestatus)"));
  TablePtr table = db.table("lineitem");
  GpuCompileOptions options;
  // Register tables hold 16 slots: the one pass's 36 do not fit, every set's do.
  options.strategy = GpuStrategy::ThreadPrivate;
  GroupingSetsChoice choice = plan_grouping_sets_way(query, *table, options);
  CHECK_FALSE(choice.one_pass);
  CHECK(contains(choice.reason, "the one pass has no GPU plan: --strategy thread with 36 slots"));
  // A hash table needs a key: the empty set has none, the one pass has the set id.
  options.strategy = GpuStrategy::Hash;
  choice = plan_grouping_sets_way(query, *table, options);
  CHECK(choice.one_pass);
  CHECK(contains(choice.reason, "set 2 has no GPU plan of its own: --strategy hash without"));
  // Planned for the table's own 60,029 rows, a block would read too few rows per slot of the
  // one pass's block table (8 a slot): direct slots in global memory, the sets in registers.
  options.strategy = GpuStrategy::Auto;
  choice = plan_grouping_sets_way(query, *table, options);
  CHECK_FALSE(choice.one_pass);
  CHECK(contains(choice.ways, "  one pass: direct, key domain 36\n"));
}

TEST_CASE("grouping sets auto: tally compile --explain says which way a run would take") {
  if (!cuda::nvrtc_available()) return;  // compiling needs NVRTC
  ExecOptions options;
  options.compile_only = true;
  options.explain = true;
  std::string explain;
  choice_db().execute_script(grouped("suppliers", "GROUPING SETS ((l_suppkey), (l_shipmode), ())"),
                             options,
                             [&](const StatementOutcome& outcome) { explain = outcome.explain; });
  CHECK(contains(explain,
                 "grouping sets: compiled the one pass; under auto a run would take a GROUP BY "
                 "pass per set: the one-pass plan keeps its groups in global memory"));
  CHECK(contains(explain, "  set 2: thread, key domain 1\n"));
}

}  // namespace tally
