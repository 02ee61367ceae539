// Grouping forms without a GPU: the grouping sets ROLLUP/CUBE/GROUPING SETS bind to, how a
// grouping-set query splits into one ordinary GROUP BY per set (compiler/ir/grouping_sets.h),
// the errors with their line and column, and the CUDA of each set's query and of FILTER
// aggregates compiled with NVRTC (skipped where NVRTC is not installed).
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

}  // namespace tally
