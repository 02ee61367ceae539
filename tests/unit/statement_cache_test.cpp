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

// A catalog of one table, replaced at will.
struct OneTable : Catalog {
  TableSchema schema;
  bool present = true;
  const TableSchema* find_table(std::string_view name) const override {
    return present && name == schema.name ? &schema : nullptr;
  }
  std::vector<std::string> table_names() const override { return {schema.name}; }
};

TEST_CASE("bound selects: kept while the table keeps its schema") {
  OneTable catalog;
  catalog.schema.name = "t";
  catalog.schema.columns = {{"a", Type::integer(), false}, {"b", Type::integer(), false}};
  BoundSelects bound;
  const std::string text = "SELECT a, SUM(b) FROM t GROUP BY a";
  CHECK(bound.find(text, catalog) == nullptr);
  auto query = std::make_shared<const BoundSelect>(BoundSelect{});
  auto kept = std::make_shared<BoundSelect>();
  kept->table = "t";
  bound.keep(text, kept, catalog);
  CHECK(bound.find(text, catalog) == kept);
  CHECK(bound.find("SELECT 1", catalog) == nullptr);

  std::swap(catalog.schema.columns[0], catalog.schema.columns[1]);
  CHECK(bound.find(text, catalog) == nullptr);  // the column indexes would be stale
  std::swap(catalog.schema.columns[0], catalog.schema.columns[1]);
  CHECK(bound.find(text, catalog) == kept);
  catalog.present = false;
  CHECK(bound.find(text, catalog) == nullptr);  // dropped: binding says so again

  bound.keep("SELECT 1", query, catalog);  // no FROM: no table to watch
  CHECK(bound.find("SELECT 1", catalog) == query);
}

TEST_CASE("a plain SELECT run again is bound once - again after its table changed shape") {
  Database db;
  test::run_script(db,
                   "CREATE TABLE t (k INTEGER, v BIGINT);"
                   "INSERT INTO t VALUES (1, 10), (2, 20), (1, 30);");
  const std::string sql = "SELECT k, SUM(v) FROM t GROUP BY k ORDER BY k";
  const Result first = test::run_sql(db, sql);
  REQUIRE(first.rows.size() == 2);
  CHECK(first.cell_text(0, 1) == "40");
  const Result again = test::run_sql(db, sql);
  REQUIRE(again.rows.size() == 2);
  CHECK(again.cell_text(0, 1) == "40");
  CHECK(again.cell_text(1, 1) == "20");
  test::run_script(db,
                   "DROP TABLE t; CREATE TABLE t (v BIGINT, k INTEGER);"
                   "INSERT INTO t VALUES (10, 1), (20, 2), (31, 1);");
  const Result replaced = test::run_sql(db, sql);
  REQUIRE(replaced.rows.size() == 2);
  CHECK(replaced.cell_text(0, 1) == "41");
  test::run_script(db, "DROP TABLE t;");
  CHECK_THROWS_AS(test::run_sql(db, sql), Error);
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
