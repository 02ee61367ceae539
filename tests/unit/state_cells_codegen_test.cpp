// CI half of GPU partial states: an emit_states plan's Finalizer writes every state field of
// every occupied slot (compiler/plan/partial_states.h) and no aggregate's final, under every
// strategy, and the kernels compile with NVRTC for sm_90 without a warning — no GPU needed.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "compiler/plan/partial_states.h"
#include "tests/unit/support/planner_fixture.h"

namespace tally {
namespace {

Database& states_codegen_db() {
  static Database* db = test::make_planner_db("");
  return *db;
}

// The Finalizer's source: the last kernel of the translation unit.
std::string finalizer_source(const std::string& source) {
  const size_t at = source.find(kernel_name(KernelId::Finalize));
  REQUIRE(at != std::string::npos);
  return source.substr(at);
}

// Plans `sql` under `strategy` with emit_states, generates and compiles it; checks the
// Finalizer writes cells for the plan's fields and nothing else.
void check_state_cells(const std::string& sql, const std::string& strategy) {
  INFO(sql, " under ", strategy);
  Database& db = states_codegen_db();
  const BoundSelect query = test::bind_first(db, sql);
  TablePtr table = db.table(query.table);
  const std::vector<ColumnStats> stats = scan_stats(query, *table);
  GpuCompileOptions options;
  options.strategy = strategy_from_name(strategy);
  const GpuPlan plan = with_streamed_scan(plan_for(query, stats, table->rows(), options), true);
  REQUIRE(plan.emit_states);
  CHECK_FALSE(why_states_do_not_combine(query, plan).has_value());
  for (const Launch& l : plan.launches) CHECK_FALSE(l.dependent);
  const GpuCompilation c = compile_plan(query, stats, plan, "sm_90");
  INFO(c.program->source);
  CHECK_MESSAGE(c.binary->log.empty(), "NVRTC said: " << c.binary->log);
  const std::string finalizer = finalizer_source(c.program->source);
  const uint64_t cells = state_cell_count(plan);
  for (uint64_t f = 0; f < cells; ++f) {
    CHECK(finalizer.find(fmt::format("out_values[group * {} + {}] = ", cells, f)) !=
          std::string::npos);
    CHECK(finalizer.find(fmt::format("out_value_nulls[group * {} + {}] = 0;", cells, f)) !=
          std::string::npos);
  }
  CHECK(finalizer.find(fmt::format("group * {} + {}]", cells, cells)) == std::string::npos);
  for (const char* final_step :
       {"tally_finals::", "tally_stats::", "check_int(", "check_digits(", "average_exact"}) {
    CHECK(finalizer.find(final_step) == std::string::npos);
  }
}

}  // namespace

TEST_CASE("state cells codegen: GROUP BY plans write every state field and no final") {
  const std::string q1 =
      "SELECT l_returnflag, l_linestatus, SUM(l_quantity), SUM(l_extendedprice), "
      "AVG(l_discount), COUNT(*), MIN(l_shipdate), MAX(l_tax), VAR_SAMP(l_quantity), "
      "MIN(l_shipmode), MAX(l_shipinstruct) FROM lineitem GROUP BY l_returnflag, l_linestatus";
  for (const char* strategy : {"auto", "thread", "block", "direct", "hash"}) {
    check_state_cells(q1, strategy);
  }
  check_state_cells(
      "SELECT l_returnflag, l_linestatus, COUNT(*), MIN(l_shipdate), MAX(l_linenumber), "
      "BIT_OR(l_linenumber), MIN(l_shipmode) FROM lineitem GROUP BY l_returnflag, l_linestatus",
      "block");
  // NULLs, DOUBLE variances (a second pass), and the other aggregates, keyed by a string.
  const std::string nulls =
      "SELECT c_varchar, COUNT(c_integer), SUM(c_bigint), SUM(c_wide), AVG(c_double), "
      "MIN(c_real), MAX(c_wide), MIN(c_varchar), VAR_SAMP(c_double), STDDEV(c_real), "
      "STDDEV_SAMP(c_decimal), BOOL_AND(c_boolean), BOOL_OR(c_boolean), COUNT_IF(c_boolean), "
      "BIT_AND(c_integer), BIT_OR(c_smallint), BIT_XOR(c_bigint), PRODUCT(c_double), "
      "ANY_VALUE(c_date) FROM nulls GROUP BY c_varchar";
  for (const char* strategy : {"auto", "block", "direct", "hash"})
    check_state_cells(nulls, strategy);
  // The statistical aggregates: both passes' sums leave as cells, no final runs.
  const std::string stats =
      "SELECT c_varchar, COVAR_SAMP(c_double, c_integer), CORR(c_real, c_smallint), "
      "REGR_COUNT(c_double, c_decimal), REGR_SLOPE(c_double, c_decimal), SKEWNESS(c_double), "
      "KURTOSIS(c_smallint) FROM nulls GROUP BY c_varchar";
  for (const char* strategy : {"auto", "direct", "hash"}) check_state_cells(stats, strategy);
  // An unbounded key: the Hash strategy's raw key words.
  check_state_cells(
      "SELECT l_orderkey, SUM(l_extendedprice), MAX(l_comment), COUNT(*) FROM lineitem "
      "GROUP BY l_orderkey",
      "auto");
}

TEST_CASE("state cells codegen: a query without GROUP BY writes its one slot's states") {
  check_state_cells(
      "SELECT COUNT(*), SUM(c_integer), AVG(c_wide), VAR_SAMP(c_double), MIN(c_varchar), "
      "BIT_XOR(c_smallint), PRODUCT(c_double) FROM nulls WHERE c_bigint > 0",
      "auto");
}

TEST_CASE("state cells codegen: without emit_states the Finalizer still writes the finals") {
  Database& db = states_codegen_db();
  const BoundSelect query =
      test::bind_first(db, "SELECT c_varchar, AVG(c_wide) FROM nulls GROUP BY c_varchar");
  TablePtr table = db.table(query.table);
  const std::vector<ColumnStats> stats = scan_stats(query, *table);
  const GpuPlan plan = with_streamed_scan(plan_for(query, stats, table->rows(), {}), false);
  const std::string finalizer = finalizer_source(generate_cuda(query, plan, stats).source);
  CHECK(finalizer.find("average_exact") != std::string::npos);
  CHECK(finalizer.find("out_values[group * 1 + 0]") != std::string::npos);
}

}  // namespace tally
