// runtime/compile/group_estimate.h: a GROUP BY's group count from a sample of rows, checked
// against the CPU engine's exact COUNT(DISTINCT ...) of the same keys, and the hash plan it
// sizes.
#include "runtime/compile/group_estimate.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <set>

#include "compiler/codegen/gpu_program.h"
#include "compiler/plan/count_sum_packing.h"
#include "runtime/compile/gpu_compile.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/text_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& estimate_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_atable(400000, 1u << 20, 0, 5));
    return d;
  }();
  return *db;
}

GroupEstimate estimate(const std::string& key, const std::string& where = "") {
  BoundSelect q = test::bind_first(
      estimate_db(), "SELECT " + key + ", COUNT(*) FROM atable " + where + " GROUP BY 1");
  return estimate_groups(q, *estimate_db().table("atable"), {}, 8192);
}

// `check(zipf, query, table, stats)` for `sql` over a 400,000-row atable of each Zipf exponent.
template <class Check>
void for_each_zipf(std::initializer_list<double> exponents, const std::string& sql, Check check) {
  for (double zipf : exponents) {
    Database db;
    db.put_table(generate_atable(400000, 1u << 20, zipf, 5));
    const BoundSelect q = test::bind_first(db, sql);
    const Table& table = *db.table("atable");
    check(zipf, q, table, scan_stats(q, table));
  }
}

int64_t exact(const std::string& key) {
  Result r = test::run_sql(estimate_db(), "SELECT COUNT(DISTINCT " + key + ") FROM atable");
  return r.rows[0][0].i;
}

}  // namespace

TEST_CASE("group estimate: few groups are counted - many are estimated within 25%") {
  // 1,000 keys: every one is in the sample several times over.
  const GroupEstimate few = estimate("col1 % 1000 * 1000003");
  CHECK(few.sampled == 8192);
  CHECK(few.passed == 8192);
  CHECK(few.distinct == static_cast<uint64_t>(exact("col1 % 1000 * 1000003")));
  CHECK(few.groups <= few.distinct * 11 / 10);
  // About 320,000 keys over 400,000 rows: mostly seen once in the sample.
  for (const char* key : {"col1 * 7", "col1 % 100000 * 3"}) {
    const auto truth = static_cast<double>(exact(key));
    const auto groups = static_cast<double>(estimate(key).groups);
    INFO(key << ": estimate " << groups << ", exact " << truth);
    CHECK(groups >= 0.75 * truth);
    CHECK(groups <= 1.25 * truth);
  }
  // A filter no row passes leaves nothing to estimate from.
  CHECK(estimate("col1 * 7", "WHERE col2 < 0").passed == 0);
}

// The sweep's two keys at 2^23 groups over 2^27 rows (session 41): 8 of 8,192 sampled keys came
// twice, where 4 are expected. Chao's estimate fell to 3.7 M, the table to 2^23 slots for 2^23
// groups, and the run filled it and ran again. The high estimate leaves them room.
TEST_CASE("group estimate: a sample where few keys repeat sizes the table for a high estimate") {
  const KeyFrequencies two_keys{8184, 8176, 8, {}};
  const double rows = 134217728;
  const GroupCounts counts = estimate_from_frequencies(two_keys, 8192, rows);
  CHECK(counts.groups < (1u << 22));  // 2 x the estimate rounds to 2^23 slots: too few
  CHECK(counts.groups_high > (1u << 22));
  CHECK(counts.groups_high < (1u << 23));
  const GpuPlan domain = test::plan_bound(
      estimate_db(),
      test::bind_first(estimate_db(), "SELECT col1, COUNT(*) FROM atable GROUP BY 1"),
      GpuStrategy::Hash, DeviceLimits{});
  // A bound of 2^25 groups (2^26 slots), far above the estimates.
  const GpuPlan big = with_hash_capacity(domain, 1u << 26);
  // Sized for the estimate, 2^23 groups would fill the table; for the high one they take at most
  // three quarters of it.
  CHECK(with_estimated_groups(big, counts.groups, "").slots <= (1u << 23));
  const uint64_t high_slots = with_estimated_groups(big, counts.groups_high, "").slots;
  CHECK(high_slots * 3 / 4 >= (1u << 23));
  CHECK(high_slots % (1u << 20) == 0);  // past 2^20 slots, a multiple of 2^20: not doubled
  CHECK(high_slots < (1u << 24));
  // A bound of 2^23 groups (2^24 slots): the high estimate passes half of it, and the table
  // keeps the bound's size, at most twice the estimate's.
  const GpuPlan bounded = with_hash_capacity(domain, 1u << 24);
  const GpuPlan kept = with_estimated_groups(bounded, counts.groups_high, "a sample");
  CHECK(kept.slots == (1u << 24));
  CHECK(contains(kept.reason, "sized for its bound (estimated up to"));
  CHECK(with_estimated_groups(bounded, counts.groups, "").slots <= (1u << 23));
  // Many pairs leave Chao's estimate tight: the high one is within 10% of it (over 16,384 rows,
  // where GEE's 7,657 is below both).
  const GroupCounts tight = estimate_from_frequencies({6000, 4000, 1600, {}}, 8192, 16384);
  CHECK(tight.groups == 6000 + 4000 * 3999 / (2 * 1601));
  CHECK(tight.groups_high >= tight.groups);
  CHECK(tight.groups_high <= tight.groups * 11 / 10);
  // Every key seen more than once: the distinct keys are all there are, in both.
  const GroupCounts all_seen = estimate_from_frequencies({1000, 0, 200, {}}, 8192, rows);
  CHECK(all_seen.groups == 1000);
  CHECK(all_seen.groups_high == 1000);
}

TEST_CASE("group estimate: few passing rows whose keys never repeat size for every passing row") {
  // 305 of 8,192 sampled rows passed a filter, each its own key: as many groups as passing rows
  // fit that sample, so the high estimate is the passing rows (2.2 M of 60 M).
  const double passing = 60000000.0 * 305 / 8192;
  const GroupCounts singletons = estimate_from_frequencies({305, 305, 0, {}}, 305, passing);
  CHECK(singletons.groups < 50000);  // Chao's 46,665
  CHECK(singletons.groups_high == static_cast<uint64_t>(passing));
  // One key seen twice: the same.
  CHECK(estimate_from_frequencies({304, 303, 1, {}}, 305, passing).groups_high ==
        static_cast<uint64_t>(passing));
  // Few passing rows whose keys repeat: the distinct keys are all there are.
  const GroupCounts repeated = estimate_from_frequencies({5, 0, 0, {}}, 305, passing);
  CHECK(repeated.groups_high == 5);
  // 1,024 passing rows or more keep Chao's high estimate.
  const GroupCounts many = estimate_from_frequencies({1024, 1024, 0, {}}, 1024, passing);
  CHECK(many.groups_high == 1024 + 1024 * 1023 / 2);
}

TEST_CASE("group estimate: skewed keys size the table for Shlosser's estimate up to 8x Chao's") {
  const double rows = 134217728;
  // One hot key holds 4,192 of 9,192 sampled rows: the counts fail the test of equal frequencies.
  const KeyFrequencies hot{4502, 4000, 500, {{1, 4000}, {2, 500}, {4192, 1}}};
  const GroupCounts plain = estimate_from_frequencies({4502, 4000, 500, {}}, 9192, rows);
  const GroupCounts skewed = estimate_from_frequencies(hot, 9192, rows);
  CHECK(skewed.groups == plain.groups);
  // Shlosser's estimate (28.6 M) passes the cap: 8 times the high estimate without the profile.
  CHECK(skewed.groups_high == 8 * plain.groups_high);
  // Keys of equal frequency keep Chao's and GEE's estimates.
  const KeyFrequencies even{8096, 8000, 96, {{1, 8000}, {2, 96}}};
  const GroupCounts uniform = estimate_from_frequencies(even, 8192, rows);
  const GroupCounts without = estimate_from_frequencies({8096, 8000, 96, {}}, 8192, rows);
  CHECK(uniform.groups == without.groups);
  CHECK(uniform.groups_high == without.groups_high);
  // Every key seen 16 times but one seen 17: no skew, nothing unseen.
  const KeyFrequencies all{512, 0, 0, {{16, 511}, {17, 1}}};
  CHECK(estimate_from_frequencies(all, 8193, rows).groups_high == 512);
}

TEST_CASE("group estimate: a large hash table is sized for the sampled groups") {
  BoundSelect q = test::bind_first(estimate_db(),
                                   "SELECT col1 % 1000 * 1000003, COUNT(*) FROM atable GROUP BY 1");
  const Table& table = *estimate_db().table("atable");
  const std::vector<ColumnStats> stats = scan_stats(q, table);
  GpuCompileOptions options;
  // Without the table, the capacity follows the row count.
  GpuPlan by_rows = plan_for(q, stats, table.rows(), options);
  CHECK(by_rows.strategy == GpuStrategy::Hash);
  CHECK(by_rows.slots == 1u << 20);
  options.table = &table;
  GpuPlan sampled = plan_for(q, stats, table.rows(), options);
  CHECK(sampled.slots == 2048);  // 2 x the 1,000 groups (all in the sample), rounded up
  CHECK(sampled.reason.find("sized for up to") != std::string::npos);
  CHECK(describe_plan(sampled).find("distinct keys in 8192 sampled rows") != std::string::npos);
  // A capacity given by the caller (tests of growth) wins.
  options.hash_capacity = 64;
  CHECK(plan_for(q, stats, table.rows(), options).slots == 64);
}

// Zipf 1.0 over 2^20 keys: the hottest holds about 7% of the rows, past the 35,000 rows the
// low-count packed word keeps SUM(col2 * 1000) exact for at 400,000 rows, so the plan packs
// with carries from the start instead of running its Scan a second time. Zipf 1.5's keys are
// hotter still, but few enough for the block cache, which keeps their rows out of the word.
TEST_CASE("group estimate: a hot key in the sample gives the packed sum its carries") {
  const std::string sql = "SELECT col1, COUNT(*), SUM(col2 * 1000) FROM atable GROUP BY 1";
  Database zipf1, zipf15;
  zipf1.put_table(generate_atable(400000, 1u << 20, 1.0, 5));
  zipf15.put_table(generate_atable(400000, 1u << 20, 1.5, 5));
  for (Database* db : {&estimate_db(), &zipf1, &zipf15}) {
    BoundSelect q = test::bind_first(*db, sql);
    const Table& table = *db->table("atable");
    const std::vector<ColumnStats> stats = scan_stats(q, table);
    GpuCompileOptions options;
    options.table = &table;
    const GpuPlan plan = plan_for(q, stats, table.rows(), options);
    INFO(describe_plan(plan));
    CHECK(plan.strategy == GpuStrategy::Hash);  // sized for the sampled groups
    const bool hot = db == &zipf1;
    // Uniform keys rarely repeat in a block's rows: no block cache (the next test).
    CHECK((plan.block_cache_slots > 0) == (db != &estimate_db()));
    CHECK(plan.packed_sum_carries == hot);
    CHECK((plan.reason.find("the packed sum carries: a key may hold about") != std::string::npos) ==
          hot);
    CHECK((describe_count_sum_packing(plan, q, stats).find("the sum's carries counted apart") !=
           std::string::npos) == hot);
    CHECK((plan.reason.find("the block cache holds the") != std::string::npos) == (db == &zipf15));
    // Relying on the cache for every hot key, the plan lets a key probe 4 of its slots, not 2.
    CHECK((plan.block_cache_probes == 4) == (db == &zipf15));
  }
}

// Without a block cache every row of a hot key reaches the packed word, so a key in 5 sampled
// rows (not 8) is enough: key 0 holds 1 row in 1,400 of 2 M (about 1,430), past half the
// 2,199 rows a low-count sum of values under 4e9 is exact for. Uniform keys beside it keep
// the low count.
TEST_CASE("group estimate: without a block cache a key in 5 sampled rows gives the carries") {
  Database db;
  ExecOptions cpu;
  cpu.device = DeviceChoice::Cpu;
  db.execute_script(
      "CREATE TABLE h (k INTEGER, u INTEGER, v BIGINT);"
      "INSERT INTO h SELECT CASE WHEN range % 1400 = 0 THEN 0 ELSE range * 7919 % 262144 END, "
      "range * 7919 % 262144, range * 7001 % 4000000000 FROM range(2000000)",
      cpu, [](const StatementOutcome&) {});
  const Table& table = *db.table("h");
  for (const char* key : {"k", "u"}) {
    INFO(key);
    BoundSelect q =
        test::bind_first(db, fmt::format("SELECT {}, COUNT(*), SUM(v) FROM h GROUP BY 1", key));
    const std::vector<ColumnStats> stats = scan_stats(q, table);
    GpuCompileOptions options;
    options.table = &table;
    const GpuPlan plan = plan_for(q, stats, table.rows(), options);
    INFO(describe_plan(plan));
    REQUIRE(plan.block_cache_slots == 0);  // the sampled keys rarely repeat
    const bool hot = std::string(key) == "k";
    CHECK(plan.packed_sum_carries == hot);
    CHECK((plan.reason.find("(one key in 6 of 8192 sampled rows)") != std::string::npos) == hot);
  }
}

// A block cache holds the first keys a block meets: Zipf 1.0's hot keys repeat and hit it,
// uniform and Zipf 0.5 keys over 2^17 slots rarely do, so their Direct plans drop it and
// `considered` says so; the keys the sample saw decide it, not the domain's size.
TEST_CASE("group estimate: keys that rarely repeat drop the block cache") {
  const std::string sql = "SELECT col1 % 131072, COUNT(*), SUM(col2) FROM atable GROUP BY 1";
  for_each_zipf(
      {0.0, 0.5, 1.0}, sql,
      [](double zipf, const BoundSelect& q, const Table& table,
         const std::vector<ColumnStats>& stats) {
        GpuCompileOptions options;
        const GpuPlan unsampled = plan_for(q, stats, table.rows(), options);
        REQUIRE(unsampled.strategy == GpuStrategy::Direct);
        REQUIRE(unsampled.block_cache_slots > 0);  // without the table, the cache stays
        options.table = &table;
        const GpuPlan plan = plan_for(q, stats, table.rows(), options);
        INFO(zipf, "\n", describe_plan(plan));
        const bool skewed = zipf >= 1.0;
        CHECK((plan.block_cache_slots > 0) == skewed);
        CHECK((plan.considered.find("block cache: dropped (") != std::string::npos) == !skewed);
        const bool cache_in_kernel =
            generate_cuda(q, plan, stats).source.find("SharedTableRef") != std::string::npos;
        CHECK(cache_in_kernel == skewed);
      });
}

// Over 2^27 rows auto keeps 2^17 slots in 5 packed block slices, one copy of a slot an SM:
// where one key holds 1/8 of the sample (Zipf 1.5's hottest, 38%), its shared atomics would
// pile onto one word, and the plan is Direct's; Zipf 1.0's hottest (7%) keeps the slices.
TEST_CASE("group estimate: a hot key leaves packed block slices for direct") {
  const std::string sql = "SELECT col1 % 131072, COUNT(*), SUM(col2) FROM atable GROUP BY 1";
  for_each_zipf(
      {1.0, 1.5}, sql,
      [](double zipf, const BoundSelect& q, const Table& table,
         const std::vector<ColumnStats>& stats) {
        const uint64_t rows = uint64_t{1} << 27;
        GpuCompileOptions options;
        const GpuPlan unsampled = plan_for(q, stats, rows, options);
        REQUIRE(unsampled.strategy == GpuStrategy::Block);
        REQUIRE(unsampled.scan_slices == 5);
        REQUIRE(unsampled.block_table.packed.words == 1);
        options.table = &table;
        const GpuPlan plan = plan_for(q, stats, rows, options);
        INFO(zipf, "\n", describe_plan(plan));
        const bool hot = zipf > 1.0;
        CHECK((plan.strategy == GpuStrategy::Direct) == hot);
        CHECK((plan.reason.find("sampled rows would take that share of a sliced block table") !=
               std::string::npos) == hot);
        options.strategy = GpuStrategy::Block;  // forced, the slices stay
        CHECK(plan_for(q, stats, rows, options).sliced());
      });
}

// 400,000 rows over 2^20 keys: Zipf 1.0 makes 112,943 groups, where Chao's estimate from the
// sample's 4,422 distinct keys is 27,554 (a table of 65,536 slots would fill and run again).
// Shlosser's, for skewed samples, sizes every distribution's table for its groups.
TEST_CASE("group estimate: a hash table over skewed keys holds their groups at the first try") {
  for_each_zipf(
      {0.0, 0.5, 1.0, 1.5}, "SELECT col1 * 1000003, COUNT(*) FROM atable GROUP BY 1",
      [](double zipf, const BoundSelect& q, const Table& table,
         const std::vector<ColumnStats>& stats) {
        GpuCompileOptions options;
        options.table = &table;
        const GpuPlan plan = plan_for(q, stats, table.rows(), options);
        std::set<int64_t> keys;
        for (size_t r = 0; r < table.rows(); ++r) {
          keys.insert(table.columns[0]->get_value(r).i);
        }
        INFO("zipf " << zipf << ": " << keys.size() << " groups, " << plan.slots << " slots");
        REQUIRE(plan.strategy == GpuStrategy::Hash);
        CHECK(plan.slots >= keys.size() * 4 / 3);  // filled to 3/4 at most
        CHECK(plan.slots <= keys.size() * 16);
      });
}

}  // namespace tally
