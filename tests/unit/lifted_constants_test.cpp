// Compared constants as parameters of the GPU's program (compiler/plan/lifted_constants.h):
// which constants are lifted, and that two statements differing only in them generate the
// same CUDA (so the second finds the first's kernels), while the plan still sees the values.
// Without a GPU: `tally compile` takes the same path as a run.
#include "compiler/plan/lifted_constants.h"

#include <doctest/doctest.h>

#include <string>

#include "compiler/codegen/gpu_program.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/shell.h"

namespace tally {
namespace {

Database& db() {
  static Database* d = test::make_planner_db("");
  return *d;
}

// The source generated for the lifted query, planned with the lifted values known.
std::string lifted_source(const std::string& sql) {
  BoundSelect q = test::bind_first(db(), sql);
  auto lifted = lift_compared_constants(q);
  REQUIRE(lifted != nullptr);
  TablePtr table = db().table(q.table);
  GpuCompileOptions options;
  options.parameters = &lifted->values;
  auto stats = scan_stats(lifted->query, *table);
  GpuPlan plan = plan_for(lifted->query, stats, table->rows(), options);
  return generate_cuda(lifted->query, plan, stats).source;
}

}  // namespace

TEST_CASE("lifted constants: integer and date constants compared in WHERE - not decimals") {
  BoundSelect q6 = test::bind_first(db(), test::query_file("tpch_q6"));
  auto lifted = lift_compared_constants(q6);
  REQUIRE(lifted != nullptr);
  // The two dates of the shipdate range; the discount range and the quantity are DECIMALs.
  REQUIRE(lifted->values.size() == 2);
  CHECK(lifted->query.parameter_types == std::vector<Type>{Type::date(), Type::date()});
  CHECK(lifted->values[0].i == 8766);  // 1994-01-01, days since 1970-01-01
  CHECK(lifted->values[1].i == 9131);  // 1995-01-01
  // A user's own parameters keep their numbers: the lifted ones come after them.
  BoundSelect with_user = test::bind_first(
      db(),
      "SELECT COUNT(*) FROM lineitem WHERE l_suppkey < ? AND l_partkey > 10 AND 5 < l_linenumber");
  auto both = lift_compared_constants(with_user);
  REQUIRE(both != nullptr);
  CHECK(both->query.parameter_types.size() == 3);
  CHECK(both->values.size() == 2);
  CHECK(both->values[0].i == 10);
  CHECK(both->values[1].i == 5);
  // A plan takes the statement's own values then the lifted ones, or none where its own are
  // not known.
  CHECK(lifted_parameters(with_user, {Value::from_int(7)}, both.get()).size() == 3);
  CHECK(lifted_parameters(with_user, {}, both.get()).empty());
  CHECK(lifted_parameters(q6, {}, lifted.get()).size() == 2);
  CHECK(lifted_parameters(q6, {}, nullptr).empty());
  // Nothing compared with a constant, or no WHERE: nothing lifted.
  CHECK(lift_compared_constants(test::bind_first(db(), test::query_file("tpch_q1"))) != nullptr);
  CHECK(lift_compared_constants(test::bind_first(
            db(), "SELECT COUNT(*) FROM lineitem WHERE l_shipmode = 'AIR'")) == nullptr);
  CHECK(lift_compared_constants(test::bind_first(db(), "SELECT COUNT(*) FROM lineitem")) ==
        nullptr);
}

TEST_CASE("lifted constants: statements differing only in them generate the same CUDA") {
  const std::string a = lifted_source(
      "SELECT l_returnflag, COUNT(*), SUM(l_quantity) FROM lineitem WHERE l_shipdate <= DATE "
      "'1998-09-02' AND l_suppkey > 10 GROUP BY l_returnflag");
  const std::string b = lifted_source(
      "SELECT l_returnflag, COUNT(*), SUM(l_quantity) FROM lineitem WHERE l_shipdate <= DATE "
      "'1995-03-15' AND l_suppkey > 70 GROUP BY l_returnflag");
  CHECK(a == b);
  CHECK(a.find("1998") == std::string::npos);
}

TEST_CASE("lifted constants: tally compile compiles what a run takes - one compile for both") {
  // A fresh kernel cache: the second statement, another date, is a disk-cache hit.
  test::ScratchDir cache;
  const std::string env =
      "-u TALLY_CACHE_DISABLE TALLY_CACHE_DIR=" + test::shell_quote(cache.path().string());
  const std::string sql = "SELECT COUNT(*) FROM lineitem WHERE l_shipdate <= DATE ";
  auto first = test::run_tally({"compile", "--tpch", "0.01", "-e", sql + "'1996-01-01'"}, env);
  auto second = test::run_tally({"compile", "--tpch", "0.01", "-e", sql + "'1997-06-30'"}, env);
  REQUIRE(first.status == 0);
  REQUIRE(second.status == 0);
  INFO(first.out << second.out);
  CHECK(first.out.find("disk cache") == std::string::npos);
  CHECK(second.out.find("disk cache") != std::string::npos);
}

}  // namespace tally
