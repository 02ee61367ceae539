// A one-pass Block table kept in copies (GpuPlan::block_replicas), lane l merging into copy
// l % copies and the flush folding each slot's copies: every group must come out once, with
// the CPU engine's states, for 8 copies of a small table, 4 of a larger one, and 2 where the
// plan took half the blocks an SM to fit them; skewed keys (one hot group in a warp's rows),
// NULL keys and every kind of merge (sum, count, MIN, MAX, the variance's second pass).
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
TEST_CASE("gpu block copies: a table in copies gives the CPU engine's groups") {
  Database db;
  db.put_table(generate_atable(400000, 1u << 20, 1.5, 13));  // Zipf 1.5: a few hot keys
  const std::pair<const char*, const char*> cases[] = {
      {"SELECT col1 % 32 AS g, COUNT(*), SUM(col2), MIN(col3), MAX(col2), AVG(col3) FROM "
       "atable GROUP BY 1",
       "x 8 copies"},
      {"SELECT CASE WHEN col4 % 7 = 0 THEN NULL ELSE col1 % 400 END AS g, COUNT(*), "
       "SUM(col2), MAX(col3), VAR_SAMP(col2) FROM atable GROUP BY 1",
       "x 4 copies"},
      {"SELECT col1 % 4096 AS g, COUNT(*), SUM(col2), MIN(col3) FROM atable GROUP BY 1",
       "x 2 copies"},
  };
  for (const auto& [sql, copies] : cases) {
    INFO(sql);
    const Result cpu = test::run_sql(db, sql);
    const auto [gpu, explain] = test::run_forced_block(db, sql);
    INFO(explain);
    CHECK(explain.find(copies) != std::string::npos);
    CHECK(gpu.device.rfind("gpu", 0) == 0);
    CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
  }
}

}  // namespace tally
