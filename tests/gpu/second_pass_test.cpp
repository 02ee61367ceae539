// The second pass of DOUBLE variances (deviations from the first pass's means) merges where
// the first pass does: into each thread's table (thread), a block table in static shared
// memory (block, where its f64 cells fit), else the global states. Every aggregate with a
// second pass, NULL arguments, a filter, skewed keys and a table without GROUP BY must give
// the CPU engine's results, and --explain must name where the pass merged.
#include <doctest/doctest.h>

#include <string>

#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

struct Case {
  std::string key;  // empty: no GROUP BY
  std::string strategy;
  std::string merged_into;  // --explain's words for where the second pass merges
  std::string aggregates;
};

// Every aggregate with a second pass: 29 state fields, too many for shared thread tables.
const char* const kAggregates =
    "COUNT(*), VAR_SAMP(col3), STDDEV_SAMP(CASE WHEN col2 % 5 = 0 THEN NULL ELSE col3 END), "
    "COVAR_SAMP(col3, CAST(col2 AS DOUBLE)), CORR(col3, CAST(col4 AS DOUBLE)), "
    "REGR_SLOPE(col3, CAST(col2 AS DOUBLE)), SKEWNESS(col3), KURTOSIS(CAST(col2 AS DOUBLE))";

const char* const kFewer =
    "COUNT(*), VAR_SAMP(col3), STDDEV_SAMP(CASE WHEN col2 % 5 = 0 THEN NULL ELSE col3 END)";

}  // namespace

TEST_CASE("gpu second pass: deviations merged on chip give the CPU engine's results") {
  Database db;
  db.put_table(generate_atable(300000, 1u << 20, 1.0, 11));  // Zipf 1.0: hot keys
  const Case cases[] = {
      {"col1 % 3", "auto", "each thread's table in registers", kAggregates},
      {"col1 % 3", "auto", "each thread's table in shared memory", kFewer},
      {"", "auto", "each thread's table in shared memory", kAggregates},
      {"col1 % 3", "block", "a block table of 3 slots", kAggregates},
      {"CASE WHEN col2 % 9 = 0 THEN NULL ELSE col1 % 40 END", "block", "a block table of 41 slots",
       kAggregates},
      {"col1 % 3000", "block", "the global states, with atomics", kAggregates},
      {"col1 % 40", "direct", "the global states, with atomics", kFewer},
  };
  for (const Case& c : cases) {
    const std::string sql = c.key.empty() ? "SELECT " + c.aggregates + " FROM atable WHERE col4 > 3"
                                          : "SELECT " + c.key + " AS g, " + c.aggregates +
                                                " FROM atable WHERE col4 > 3 GROUP BY 1";
    INFO(sql, " under ", c.strategy);
    const Result cpu = test::run_sql(db, sql);
    const auto [gpu, explain] = test::run_explained(db, sql, c.strategy);
    INFO(explain);
    CHECK(explain.find("second pass: deviations from the first pass's means, merged into " +
                       c.merged_into) != std::string::npos);
    CHECK(gpu.device.rfind("gpu", 0) == 0);
    CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu, 1e-7)) == "");
  }
}

}  // namespace tally
