// A Block plan over more slots than one block's shared memory holds runs the Scan once per
// slice of its slots (compiler/plan/shared_placement.h), each pass merging only its slice's
// rows: every group must come out once, with the CPU engine's states, whatever slice its
// key falls in (NULL keys, the DISTINCT set and the variance's second pass included).
#include <doctest/doctest.h>

#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

// `sql` with block forced runs on the GPU in slices (or, `sliced` false, in one pass), its
// --explain holding `layout`, and gives the CPU engine's result.
void check_sliced(Database& db, const std::string& sql, const std::string& layout,
                  bool sliced = true) {
  INFO(sql);
  const Result cpu = test::run_sql(db, sql);
  const auto [gpu, explain] = test::run_forced_block(db, sql);
  INFO(explain);
  CHECK((explain.find(" slices of ") != std::string::npos) == sliced);
  CHECK(explain.find(layout) != std::string::npos);
  CHECK(gpu.device.rfind("gpu", 0) == 0);
  CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
}

}  // namespace

TEST_CASE("gpu block slices: one Scan pass a slice gives the CPU engine's groups") {
  Database db;
  db.put_table(generate_atable(300000, 1u << 18, 0, 5));
  for (const char* sql :
       {"SELECT col1 % 40000 AS g, COUNT(*), SUM(col2), MIN(col3), MAX(col2), AVG(col2) "
        "FROM atable GROUP BY 1",
        "SELECT col1 % 70000 AS g, COUNT(*), VAR_SAMP(col3), COUNT(DISTINCT col2 % 100) "
        "FROM atable WHERE col4 > 10 GROUP BY 1",
        "SELECT CASE WHEN col4 % 10 = 0 THEN NULL ELSE col1 % 50000 END AS g, COUNT(*), "
        "SUM(col4) FROM atable GROUP BY 1"}) {
    check_sliced(db, sql, "block table: ");
  }
}

// Where a slice's 12-byte cells do not fit, the row count and the non-negative sums share one
// 64-bit word a slot (compiler/plan/thread_tables.h pack_block_table): every field must come
// apart at the flush with the CPU engine's value, NULL arguments, a filter and NULL keys
// included, beside a field that keeps its own cell.
TEST_CASE("gpu block slices: a packed table gives the CPU engine's groups") {
  Database db;
  db.put_table(generate_atable(400000, 1u << 18, 0, 7));
  for (const char* sql :
       {"SELECT col1 % 131072 AS g, COUNT(*), SUM(col2), SUM(col4) FROM atable GROUP BY 1",
        "SELECT col1 % 100000 AS g, COUNT(*), SUM(CASE WHEN col2 % 7 = 0 THEN NULL ELSE col2 END), "
        "COUNT(col4), MAX(col2) FROM atable WHERE col4 > 1000 GROUP BY 1",
        "SELECT CASE WHEN col2 % 9 = 0 THEN NULL ELSE col1 % 90000 END AS g, COUNT(*), "
        "AVG(col4) FROM atable GROUP BY 1"}) {
    check_sliced(db, sql, "bits of u64 word 0");
  }
}

// A domain whose 12-byte cells pass a block's shared memory but whose packed words fit runs
// in one pass over a packed table (25,000 slots x 8 bytes; 12 would take 300,000).
TEST_CASE("gpu block slices: a packed table in one pass gives the CPU engine's groups") {
  Database db;
  db.put_table(generate_atable(400000, 1u << 18, 0, 11));
  check_sliced(db,
               "SELECT col1 % 25000 AS g, COUNT(*), SUM(col2), AVG(col2) FROM atable "
               "WHERE col4 > 500 GROUP BY 1",
               "block table: 25000 slots x (", false);
}

// Auto slices only over enough rows per slot; a few thousand rows keep direct, and the
// result is the same either way.
TEST_CASE("gpu block slices: auto and the forced block agree with the CPU engine") {
  Database db;
  db.put_table(generate_atable(200000, 1u << 16, 1.1, 9));
  CHECK(test::compare_gpu_strategies(
            db, "SELECT col1 % 30000, COUNT(*), SUM(col2), MAX(col3) FROM atable GROUP BY 1") >= 4);
}

// Streamed from host memory, each batch runs the first pass once per slice and the second
// pass of a DOUBLE variance once, not once per slice (which would merge each row that often).
TEST_CASE("gpu block slices: streamed, the variance's second pass reads each row once") {
  Database db;
  db.put_table(generate_atable(300000, 1u << 18, 0, 5));
  const std::string sql =
      "SELECT col1 % 70000 AS g, COUNT(*), VAR_SAMP(col3), STDDEV_SAMP(col3 + col2) FROM atable "
      "WHERE col4 > 10 GROUP BY 1";
  const Result cpu = test::run_sql(db, sql);
  ExecOptions options;
  options.strategy = "block";
  options.placement = "host";
  options.batch_rows = 50000;
  const auto [gpu, explain] = test::run_explained(db, sql, options);
  INFO(explain);
  CHECK(explain.find(" slices of ") != std::string::npos);
  CHECK(explain.find("scan: once per batch of rows") != std::string::npos);
  CHECK(gpu.device.rfind("gpu", 0) == 0);
  CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu, 1e-7)) == "");
}

}  // namespace tally
