// The plan cache of prepared statements: a second execution with the same plan skips code
// generation and every binary cache; other data makes another plan, whose program is the
// one a fresh compile generates; concurrent executions share one entry. No GPU needed: the
// executions compile only (what a GPU run does before it launches).
#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

#include "runtime/compile/gpu_plan_cache.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/text_check.h"

namespace tally {
namespace {

using test::run_script;

const char* const kQuery = "SELECT k, SUM(v), COUNT(*) FROM t WHERE v > ? GROUP BY k";

StatementOutcome compile_prepared(Database& db, const PreparedSelect& statement) {
  ExecOptions options;
  options.compile_only = true;
  options.emit_cuda = true;
  return db.execute_prepared(statement, options);
}

// The source a plain (not prepared) compile of kQuery generates for the current table.
std::string fresh_source(Database& db) {
  ExecOptions options;
  options.compile_only = true;
  options.emit_cuda = true;
  std::string source;
  db.execute_script(kQuery, options, [&](const StatementOutcome& o) { source = o.cuda; });
  return source;
}

TEST_CASE("plan cache: the last plan comes back for the inputs it was made from only") {
  GpuPlanCache plans;
  GpuPlanCache::PlanInputs inputs;
  inputs.rows = 1000;
  inputs.stats.resize(2);
  inputs.stats[0].has_range = true;
  inputs.stats[0].max = 9;
  inputs.arch = "sm_90";
  CHECK(!plans.remembered_plan(inputs));
  GpuPlan plan;
  plan.slots = 10;
  plan.reason = "the domain of k";
  plans.remember_plan(inputs, plan);
  REQUIRE(plans.remembered_plan(inputs));
  CHECK(plans.remembered_plan(inputs)->slots == 10);
  CHECK(plans.remembered_plan(inputs)->reason == plan.reason);
  auto other = [&](auto change) {
    GpuPlanCache::PlanInputs changed = inputs;
    change(changed);
    return plans.remembered_plan(changed).has_value();
  };
  CHECK(!other([](auto& i) { i.rows = 1001; }));
  CHECK(!other([](auto& i) { i.stats[0].max = 10; }));  // new data, another domain
  CHECK(!other([](auto& i) { i.stats[1].has_nulls = true; }));
  CHECK(!other([](auto& i) { i.strategy = GpuStrategy::Hash; }));
  CHECK(!other([](auto& i) { i.hash_capacity = 64; }));
  CHECK(!other([](auto& i) { i.limits.sm_count = 78; }));
  CHECK(!other([](auto& i) { i.arch = "compute_90"; }));
}

TEST_CASE("plan cache: a second execution with the same plan generates no code") {
  if (!cuda::nvrtc_available()) return;
  Database db;
  run_script(db,
             "CREATE TABLE t (k INTEGER, v BIGINT);"
             "INSERT INTO t VALUES (1, 10), (2, 20), (1, 5), (3, 7);");
  auto statement = db.prepare(kQuery);
  StatementOutcome first = compile_prepared(db, *statement);
  CHECK(!contains(first.timings.gpu, "plan cache"));
  CHECK(statement->plans->misses() == 1);
  CHECK(statement->plans->size() == 1);

  StatementOutcome second = compile_prepared(db, *statement);
  CHECK(contains(second.timings.gpu, "codegen 0.00 ms, NVRTC 0.0 ms (plan cache)"));
  CHECK(statement->plans->hits() == 1);
  CHECK(statement->plans->size() == 1);
  CHECK(second.cuda == first.cuda);
  CHECK(second.tag == first.tag);
}

TEST_CASE("plan cache: other statistics make another plan with the freshly generated program") {
  if (!cuda::nvrtc_available()) return;
  Database db;
  run_script(db, "CREATE TABLE t (k INTEGER, v BIGINT); INSERT INTO t VALUES (1, 10), (2, 20);");
  auto statement = db.prepare(kQuery);
  StatementOutcome small = compile_prepared(db, *statement);
  CHECK(small.cuda == fresh_source(db));

  // Same shape (no rebind), keys over a much wider range: the key encoding changes.
  run_script(db,
             "DROP TABLE t; CREATE TABLE t (k INTEGER, v BIGINT);"
             "INSERT INTO t VALUES (-1000000, 1), (2000000, 2), (5, 3);");
  StatementOutcome wide = compile_prepared(db, *statement);
  CHECK(!contains(wide.timings.gpu, "plan cache"));
  CHECK(statement->plans->size() == 2);
  CHECK(wide.cuda != small.cuda);
  CHECK(wide.cuda == fresh_source(db));

  // Back to the first data: its plan is still cached.
  run_script(db,
             "DROP TABLE t; CREATE TABLE t (k INTEGER, v BIGINT);"
             "INSERT INTO t VALUES (1, 10), (2, 20);");
  StatementOutcome again = compile_prepared(db, *statement);
  CHECK(contains(again.timings.gpu, "(plan cache)"));
  CHECK(again.cuda == small.cuda);
}

TEST_CASE("plan cache: threads executing one statement at once share one entry") {
  if (!cuda::nvrtc_available()) return;
  Database db;
  run_script(db, "CREATE TABLE t (k INTEGER, v BIGINT); INSERT INTO t VALUES (4, 1), (4, 2);");
  auto statement = db.prepare(kQuery);
  constexpr int kThreads = 3;
  std::vector<std::string> sources(kThreads);
  std::vector<std::string> errors(kThreads);
  {
    std::vector<std::jthread> threads;
    for (int i = 0; i < kThreads; ++i) {
      threads.emplace_back([&, i] {
        try {
          sources[i] = compile_prepared(db, *statement).cuda;
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      });
    }
  }
  for (int i = 0; i < kThreads; ++i) {
    CHECK(errors[i].empty());
    CHECK(sources[i] == sources[0]);
  }
  CHECK(!sources[0].empty());
  CHECK(statement->plans->size() == 1);
  CHECK(statement->plans->hits() + statement->plans->misses() == kThreads);
}

TEST_CASE("plan fingerprint: everything code generation reads - and not the reason") {
  GpuPlan plan;
  plan.strategy = GpuStrategy::Direct;
  plan.keys = {KeyEncoding{true, 1, 3, false, false, -1}};
  plan.slots = 3;
  plan.grid = 264;
  plan.rows = 1000;
  std::vector<ColumnStats> stats(2);
  stats[0].bits = 2;
  std::string base = plan_fingerprint(plan, stats, "sm_90");
  CHECK(plan_fingerprint(plan, stats, "sm_90") == base);

  auto differs = [&](auto change) {
    GpuPlan p = plan;
    std::vector<ColumnStats> s = stats;
    std::string arch = "sm_90";
    change(p, s, arch);
    return plan_fingerprint(p, s, arch) != base;
  };
  CHECK(differs([](GpuPlan&, auto&, std::string& a) { a = "sm_100"; }));
  CHECK(differs([](GpuPlan& p, auto&, auto&) { p.strategy = GpuStrategy::Hash; }));
  CHECK(differs([](GpuPlan& p, auto&, auto&) { p.grid = 132; }));
  CHECK(differs([](GpuPlan& p, auto&, auto&) { p.shared_thread_tables = true; }));
  CHECK(differs([](GpuPlan& p, auto&, auto&) { p.block = 128; }));
  CHECK(differs([](GpuPlan& p, auto&, auto&) { p.distinct_capacity = 4096; }));
  CHECK(differs([](GpuPlan& p, auto&, auto&) { p.state_slots = 7; }));
  CHECK(differs([](GpuPlan& p, auto&, auto&) { p.rows = 1001; }));
  CHECK(differs([](GpuPlan& p, auto&, auto&) { p.keys[0].min = 0; }));
  CHECK(differs([](GpuPlan& p, auto&, auto&) { p.keys[0].nullable = true; }));
  CHECK(differs([](GpuPlan& p, auto&, auto&) { p.keys[0].exact = true; }));
  CHECK(differs([](GpuPlan&, auto& s, auto&) { s[1].has_nulls = true; }));
  CHECK(differs([](GpuPlan&, auto& s, auto&) { s[0].bits = 3; }));
  CHECK(differs([](GpuPlan&, auto& s, auto&) { s[1].max = 99; }));
  CHECK(differs([](GpuPlan&, auto& s, auto&) { s.pop_back(); }));
  CHECK_FALSE(differs([](GpuPlan& p, auto&, auto&) { p.reason = "another reason"; }));
}

TEST_CASE("plan cache: keeps the first entry stored and drops the oldest beyond its limit") {
  GpuPlanCache cache;
  auto entry = [](const std::string& source) {
    GpuProgram program;
    program.source = source;
    return std::make_shared<const CachedGpuProgram>(
        CachedGpuProgram{std::make_shared<const GpuProgram>(std::move(program)), nullptr, nullptr});
  };
  CHECK(cache.find("a") == nullptr);
  CHECK(cache.insert("a", entry("first"))->program->source == "first");
  CHECK(cache.insert("a", entry("second"))->program->source == "first");
  CHECK(cache.find("a")->program->source == "first");
  for (size_t i = 0; i < GpuPlanCache::kMaxEntries; ++i) {
    cache.insert("p" + std::to_string(i), entry("x"));
  }
  CHECK(cache.size() == GpuPlanCache::kMaxEntries);
  CHECK(cache.find("a") == nullptr);
  CHECK(cache.find("p0") != nullptr);
  CHECK(cache.hits() == 2);
  CHECK(cache.misses() == 2);
}

}  // namespace
}  // namespace tally
