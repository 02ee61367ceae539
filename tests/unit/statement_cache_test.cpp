// A session's memory of statement texts: scripts parsed once, and the GPU plans of a plain
// SELECT kept for its next run while its table keeps its shape.
#include "runtime/session/statement_cache.h"

#include <doctest/doctest.h>

#include <string>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

TEST_CASE("script cache: the same text is parsed once - errors and long scripts are not kept") {
  ScriptCache cache;
  auto first = cache.parse("SELECT 1; SELECT 2");
  auto again = cache.parse("SELECT 1; SELECT 2");
  CHECK(first == again);
  CHECK(first->size() == 2);
  CHECK(cache.hits() == 1);
  CHECK(cache.parse("SELECT 1; SELECT 3") != first);

  CHECK_THROWS_AS(cache.parse("SELEC 1"), Error);
  CHECK_THROWS_AS(cache.parse("SELEC 1"), Error);
  CHECK(cache.hits() == 1);

  std::string long_script(ScriptCache::kMaxScriptBytes, ' ');
  long_script += "SELECT 1";
  CHECK(cache.parse(long_script) != cache.parse(long_script));
}

TEST_CASE("ad hoc plans: one cache per text while the schema and the NULL order stay") {
  AdHocPlans plans;
  TableSchema t;
  t.name = "t";
  t.columns = {{"a", Type::integer(), false}, {"b", Type::integer(), false}};
  const std::string text = "SELECT a, SUM(b) FROM t GROUP BY a";
  auto first = plans.plans_for(text, &t, "nulls_last");
  CHECK(plans.plans_for(text, &t, "nulls_last") == first);
  CHECK(plans.plans_for("SELECT 1", nullptr, "nulls_last") != first);

  TableSchema reordered = t;
  std::swap(reordered.columns[0], reordered.columns[1]);
  auto after_replace = plans.plans_for(text, &reordered, "nulls_last");
  CHECK(after_replace != first);
  CHECK(plans.plans_for(text, &reordered, "nulls_first") != after_replace);

  for (size_t i = 0; i < AdHocPlans::kMaxStatements; ++i) {
    plans.plans_for("SELECT " + std::to_string(i), nullptr, "nulls_last");
  }
  CHECK(plans.plans_for(text, &reordered, "nulls_first") != after_replace);  // evicted
}

StatementOutcome compile(Database& db, const std::string& sql) {
  ExecOptions options;
  options.compile_only = true;
  options.emit_cuda = true;
  StatementOutcome outcome;
  db.execute_script(sql, options, [&](const StatementOutcome& o) { outcome = o; });
  return outcome;
}

TEST_CASE("a SELECT run again skips code generation - not after its table changed shape") {
  Database db;
  test::run_script(db,
                   "CREATE TABLE t (k INTEGER, v BIGINT);"
                   "INSERT INTO t VALUES (1, 10), (2, 20), (1, 30);");
  const std::string sql = "SELECT k, SUM(v) FROM t GROUP BY k";
  StatementOutcome first = compile(db, sql);
  CHECK(first.timings.gpu.find("(plan cache)") == std::string::npos);
  StatementOutcome second = compile(db, sql);
  CHECK(second.timings.gpu.find("(plan cache)") != std::string::npos);
  CHECK(second.cuda == first.cuda);

  test::run_script(db,
                   "DROP TABLE t; CREATE TABLE t (v BIGINT, k INTEGER);"
                   "INSERT INTO t VALUES (10, 1), (20, 2), (30, 1);");
  CHECK(compile(db, sql).timings.gpu.find("(plan cache)") == std::string::npos);
}

}  // namespace
}  // namespace tally
