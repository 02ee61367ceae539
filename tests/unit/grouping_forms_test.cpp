// Grouping forms without a GPU: the grouping sets ROLLUP/CUBE/GROUPING SETS bind to, how a
// grouping-set query splits into one ordinary GROUP BY per set (compiler/ir/grouping_sets.h),
// or becomes one GROUP BY with the set id as a key (the GPU's one pass) whose groups read back
// per set, the errors with their line and column, and the CUDA of each set's query, of the
// one pass and of FILTER aggregates compiled with NVRTC (skipped where NVRTC is not
// installed).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "compiler/ir/grouping_sets.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/session/database.h"
#include "runtime/storage/scan_stats.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& forms_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(2000, 0.2, 7));
    return d;
  }();
  return *db;
}

BoundSelect bound(const std::string& sql) { return forms_db().prepare(sql)->query; }

struct Failure {
  std::string message;
  int line = 0;
  int column = 0;
};

Failure failure(const std::string& sql) {
  try {
    bound(sql);
  } catch (const Error& e) {
    Failure f{e.what()};
    if (e.location()) {
      f.line = e.location()->line;
      f.column = e.location()->column;
    }
    return f;
  }
  FAIL("binding succeeded: " << sql);
  return {};
}

void check_failure(const std::string& sql, const std::string& message, int line, int column) {
  INFO(sql);
  const Failure f = failure(sql);
  CHECK(f.message == message);
  CHECK(f.line == line);
  CHECK(f.column == column);
}

// The CUDA of `q`, compiled with NVRTC where it is installed; empty when a forced strategy
// cannot take the query's shape.
std::string compile_for_gpu(const BoundSelect& q, GpuStrategy strategy) {
  TablePtr t = forms_db().table("nulls");
  std::vector<ColumnStats> stats = scan_stats(q, *t);
  GpuCompileOptions options;
  options.strategy = strategy;
  GpuPlan plan;
  try {
    plan = plan_for(q, stats, t->rows(), options);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK(strategy != GpuStrategy::Auto);
    return {};
  }
  GpuProgram program = generate_cuda(q, plan, stats);
  if (cuda::nvrtc_available()) {
    GpuCompilation c = compile_plan(q, stats, plan, "sm_90");
    CHECK_MESSAGE(c.binary->log.empty(), c.binary->log);
  }
  return program.source;
}

}  // namespace

TEST_CASE("grouping forms: ROLLUP CUBE and GROUPING SETS bind to one key mask per set") {
  using Masks = std::vector<uint64_t>;
  // Keys in order of first mention: c_varchar = bit 0, c_boolean = bit 1, c_date = bit 2.
  CHECK(bound("SELECT COUNT(*) FROM nulls GROUP BY ROLLUP (c_varchar, c_boolean)").grouping_sets ==
        Masks{3, 1, 0});
  CHECK(bound("SELECT COUNT(*) FROM nulls GROUP BY CUBE (c_varchar, c_boolean)").grouping_sets ==
        Masks{3, 1, 2, 0});
  CHECK(bound("SELECT COUNT(*) FROM nulls GROUP BY c_varchar, ROLLUP (c_boolean, c_date)")
            .grouping_sets == Masks{7, 3, 1});
  CHECK(bound("SELECT COUNT(*) FROM nulls GROUP BY GROUPING SETS ((c_varchar, c_boolean), "
              "c_boolean, ())")
            .grouping_sets == Masks{3, 2, 0});
  // A plain GROUP BY has none, unless GROUPING() is called: then one set of every key.
  CHECK(bound("SELECT COUNT(*) FROM nulls GROUP BY c_varchar, c_boolean").grouping_sets.empty());
  CHECK(
      bound("SELECT GROUPING(c_boolean) FROM nulls GROUP BY c_varchar, c_boolean").grouping_sets ==
      Masks{3});
}

TEST_CASE("grouping forms: each set's query has its keys - NULL for the others - GROUPING fixed") {
  const BoundSelect q = bound(
      "SELECT c_varchar, c_boolean, GROUPING(c_varchar, c_boolean), COUNT(*) FROM nulls "
      "GROUP BY ROLLUP (c_varchar, c_boolean) HAVING GROUPING(c_boolean) = 0 ORDER BY 4 LIMIT 3");
  const std::vector<BoundSelect> sets = split_grouping_sets(q);
  REQUIRE(sets.size() == 3);
  const int64_t expected_grouping[] = {0, 1, 3};
  for (size_t s = 0; s < sets.size(); ++s) {
    INFO("set " << s);
    const BoundSelect& set = sets[s];
    CHECK(set.group_keys.size() == 2 - s);
    CHECK(set.grouping_sets.empty());
    CHECK(set.order_by.empty());
    CHECK(!set.limit.has_value());
    const Expr& grouping = *set.outputs[2].expr;
    REQUIRE(grouping.kind == ExprKind::Constant);
    CHECK(grouping.value.i == expected_grouping[s]);
    CHECK(!contains_kind(*set.having, ExprKind::Grouping));
  }
  CHECK(sets[1].outputs[0].expr->kind == ExprKind::GroupKeyRef);
  CHECK(sets[1].outputs[1].expr->kind == ExprKind::Constant);
  CHECK(sets[1].outputs[1].expr->value.null);
  CHECK(sets[2].outputs[0].expr->value.null);
}

TEST_CASE("grouping forms: errors name the line and column") {
  check_failure("SELECT c_varchar, GROUPING(c_date)\nFROM nulls GROUP BY ROLLUP (c_varchar)",
                "arguments to GROUPING must be grouping expressions of the associated query level",
                1, 28);
  check_failure(
      "SELECT COUNT(*) FROM nulls\nGROUP BY c_boolean, CUBE (c_varchar, c_date, "
      "c_integer, c_bigint, c_smallint, c_real, c_double)",
      "too many grouping sets (128; at most 64)", 2, 21);
  check_failure("SELECT DISTINCT ON (c_varchar) c_date FROM nulls\nORDER BY c_date",
                "SELECT DISTINCT ON expressions must match initial ORDER BY expressions", 1, 17);
  check_failure("SELECT c_varchar FROM nulls WHERE GROUPING(c_varchar) = 0 GROUP BY c_varchar",
                "grouping operations are not allowed in WHERE", 1, 35);
  check_failure("SELECT SUM(c_integer) FILTER (WHERE c_integer) FROM nulls",
                "argument of FILTER must be type BOOLEAN, not INTEGER", 1, 37);
  check_failure("SELECT ABS(c_integer) FILTER (WHERE c_boolean) FROM nulls",
                "FILTER specified, but abs is not an aggregate function", 1, 8);
}

TEST_CASE("grouping forms: FILTER is a conditional argument - COUNT becomes COUNT_IF") {
  const BoundSelect q = bound(
      "SELECT COUNT(*) FILTER (WHERE c_boolean), SUM(c_integer) FILTER (WHERE c_date IS NULL), "
      "COUNT(*) FILTER (WHERE TRUE) FROM nulls");
  REQUIRE(q.aggregates.size() == 3);
  CHECK(q.aggregates[0].kind == AggKind::CountIf);
  CHECK(q.aggregates[0].arg->kind == ExprKind::ColumnRef);
  CHECK(q.aggregates[1].kind == AggKind::Sum);
  CHECK(q.aggregates[1].arg->kind == ExprKind::Case);
  CHECK(q.aggregates[2].kind == AggKind::CountStar);  // a true filter changes nothing
}

TEST_CASE("grouping forms: each set's CUDA and FILTER aggregates compile with NVRTC") {
  const BoundSelect q = bound(
      "SELECT c_varchar, c_boolean, GROUPING(c_varchar, c_boolean), COUNT(*) FILTER (WHERE "
      "c_integer > 3), SUM(c_decimal) FILTER (WHERE c_boolean), MIN(c_date) FILTER (WHERE "
      "c_varchar <> 'beta') FROM nulls GROUP BY ROLLUP (c_varchar, c_boolean)");
  for (const BoundSelect& set : split_grouping_sets(q)) {
    for (GpuStrategy strategy : {GpuStrategy::Auto, GpuStrategy::Hash}) {
      const std::string source = compile_for_gpu(set, strategy);
      if (strategy == GpuStrategy::Auto) CHECK(!source.empty());
    }
  }
}

TEST_CASE("grouping forms: one pass adds the set id as the last key and keeps raw outputs") {
  const BoundSelect q = bound(
      "SELECT c_varchar, GROUPING(c_varchar, c_boolean), COUNT(*), SUM(c_integer) FROM nulls "
      "GROUP BY ROLLUP (c_varchar, c_boolean) HAVING COUNT(*) > 1 ORDER BY 3 LIMIT 2");
  const BoundSelect one = one_pass_grouping_query(q);
  REQUIRE(one.group_keys.size() == 3);
  CHECK(one.group_keys[2]->kind == ExprKind::GroupingSetId);
  CHECK(one.grouping_sets == q.grouping_sets);
  CHECK(!one.having);
  CHECK(one.order_by.empty());
  CHECK(!one.limit.has_value());
  // Every key, the set id last, then every aggregate.
  REQUIRE(one.outputs.size() == 5);
  CHECK(one.visible_outputs == 5);
  for (int k = 0; k < 3; ++k) {
    CHECK(one.outputs[static_cast<size_t>(k)].expr->kind == ExprKind::GroupKeyRef);
    CHECK(one.outputs[static_cast<size_t>(k)].expr->index == k);
  }
  CHECK(one.outputs[3].expr->kind == ExprKind::AggregateRef);
  CHECK(one.outputs[4].expr->index == 1);
}

TEST_CASE("grouping forms: one pass groups read back as each set's own keys") {
  // CUBE (c_varchar, c_boolean): sets {both}, {c_varchar}, {c_boolean}, {}.
  const BoundSelect q = bound("SELECT COUNT(*) FROM nulls GROUP BY CUBE (c_varchar, c_boolean)");
  REQUIRE(q.grouping_sets == std::vector<uint64_t>{3, 1, 2, 0});
  auto row = [](Value varchar, Value boolean, int64_t set, int64_t count) {
    return std::vector<Value>{varchar, boolean, Value::from_int(set), Value::from_int(count)};
  };
  const Value null;
  const Value seven = Value::from_int(7);
  const Value yes = Value::from_bool(true);
  // A real NULL key (set 0 and 2) beside the NULL of a dropped key.
  const std::vector<std::vector<Value>> rows = {
      row(seven, null, 0, 4), row(null, null, 3, 10), row(null, yes, 2, 5),
      row(seven, null, 1, 6), row(null, null, 2, 5),  row(null, null, 0, 1),
  };
  const std::vector<SetGroups> sets = one_pass_set_groups(q, rows);
  REQUIRE(sets.size() == 4);
  REQUIRE(sets[0].keys.size() == 2);
  CHECK(sets[0].keys[0].size() == 2);
  CHECK(sets[0].keys[0][0].i == 7);
  CHECK(sets[0].keys[1][0].null);
  CHECK(sets[0].aggregates[1][0].i == 1);
  REQUIRE(sets[1].keys.size() == 1);
  CHECK(sets[1].keys[0].size() == 1);
  CHECK(sets[1].keys[0][0].i == 7);
  REQUIRE(sets[2].keys.size() == 2);
  CHECK(sets[2].keys[0][0].i == 1);  // c_boolean alone
  CHECK(sets[2].keys[1][0].null);
  REQUIRE(sets[3].keys.size() == 1);
  CHECK(sets[3].keys[0].empty());
  CHECK(sets[3].aggregates[0][0].i == 10);
  // A set id outside the sets is an internal error, never a wrong row.
  CHECK_THROWS_AS(one_pass_set_groups(q, {row(null, null, 4, 1)}), Error);
}

TEST_CASE("grouping forms: the one pass compiles with NVRTC under each strategy") {
  const char* const queries[] = {
      "SELECT c_varchar, c_boolean, GROUPING(c_varchar, c_boolean), COUNT(*) FILTER (WHERE "
      "c_integer > 3), SUM(c_decimal), MIN(c_date) FROM nulls GROUP BY ROLLUP (c_varchar, "
      "c_boolean)",
      "SELECT c_boolean, c_integer % 7, COUNT(*), AVG(c_double), VAR_SAMP(c_double) FROM nulls "
      "GROUP BY CUBE (c_boolean, c_integer % 7)",
      "SELECT c_bigint, c_smallint, COUNT(DISTINCT c_date) FROM nulls GROUP BY GROUPING SETS "
      "((c_bigint), (c_smallint), ())",
  };
  for (const char* sql : queries) {
    INFO(sql);
    const BoundSelect one = one_pass_grouping_query(bound(sql));
    int compiled = 0;
    for (GpuStrategy strategy : {GpuStrategy::Auto, GpuStrategy::ThreadPrivate, GpuStrategy::Block,
                                 GpuStrategy::Direct, GpuStrategy::Hash}) {
      const std::string source = compile_for_gpu(one, strategy);
      if (strategy == GpuStrategy::Auto) CHECK(!source.empty());
      if (source.empty()) continue;
      ++compiled;
      CHECK(source.find("grouping_set_keys[") != std::string::npos);
      CHECK(source.find("for (u32 grouping_set = 0;") != std::string::npos);
    }
    CHECK(compiled >= 2);
  }
}

TEST_CASE("grouping forms: the one-pass plan holds dropped keys NULL and the set id a digit") {
  const BoundSelect one = one_pass_grouping_query(
      bound("SELECT COUNT(*) FROM nulls WHERE c_integer IS NOT NULL GROUP BY ROLLUP (c_integer "
            "% 5, c_boolean)"));
  TablePtr t = forms_db().table("nulls");
  std::vector<ColumnStats> stats = scan_stats(one, *t);
  const GpuPlan plan = plan_for(one, stats, t->rows(), GpuCompileOptions{});
  REQUIRE(plan.keys.size() == 3);
  CHECK(plan.keys[0].nullable);  // dropped by two of the three sets
  CHECK(plan.keys[1].nullable);
  CHECK(plan.keys[2].bounded);
  CHECK(plan.keys[2].min == 0);
  CHECK(plan.keys[2].values == 3);
  CHECK(!plan.keys[2].nullable);
}

}  // namespace tally
