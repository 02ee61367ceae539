// Adaptive compilation on a GPU: a new statement over a small table runs on the CPU engine
// while its kernels compile in the background, and, once they are compiled, on the GPU;
// every run gives the CPU engine's rows. Integer aggregates only, so results compare as text.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/text_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

StatementOutcome execute(Database& db, const std::string& sql, const ExecOptions& options) {
  StatementOutcome last;
  db.execute_script(sql, options, [&](const StatementOutcome& o) { last = o; });
  REQUIRE(last.result.has_value());
  return last;
}

// Constants no other test uses, so that no cache holds its kernels when the case starts.
const char* const kQuery =
    "SELECT zip % 17 AS z, COUNT(*), MIN(zip), MAX(zip) FROM orders WHERE zip <> 4133 "
    "GROUP BY z ORDER BY z";

TEST_CASE("gpu adaptive compile: a new statement runs on the CPU then on the GPU") {
  Database db;
  db.put_table(generate_orders_table(20000, 500, 17));
  const std::vector<std::string> expected = test::sorted_row_texts(test::run_sql(db, kQuery));
  ExecOptions adaptive;  // device auto
  adaptive.adaptive_compile = true;
  adaptive.explain = true;

  StatementOutcome first = execute(db, kQuery, adaptive);
  CHECK(first.result->device == "cpu");
  CHECK(contains(first.notice,
                 "ran on the CPU engine while its GPU kernels compile in the "
                 "background (20000 rows)"));
  CHECK(contains(first.timings.gpu, "not run: its kernels compile in the background"));
  CHECK(contains(first.explain, "adaptive compile: the CPU engine ran the statement"));
  CHECK(test::sorted_row_texts(*first.result) == expected);

  db.wait_for_compiles();
  StatementOutcome second = execute(db, kQuery, adaptive);
  CHECK(second.result->device.rfind("gpu", 0) == 0);
  CHECK(contains(second.timings.gpu, "(memory cache)"));
  CHECK(second.notice.empty());
  CHECK(test::sorted_row_texts(*second.result) == expected);
}

TEST_CASE("gpu adaptive compile: device gpu and large tables compile in the foreground") {
  Database db;
  db.put_table(generate_orders_table(20000, 500, 19));
  ExecOptions gpu;
  gpu.device = DeviceChoice::Gpu;
  gpu.adaptive_compile = true;
  const std::string on_gpu = "SELECT zip % 19 AS z, COUNT(*) FROM orders GROUP BY z ORDER BY z";
  CHECK(execute(db, on_gpu, gpu).result->device.rfind("gpu", 0) == 0);

  ExecOptions small_limit;  // device auto, a table over the limit
  small_limit.adaptive_compile = true;
  small_limit.adaptive_compile_rows = 19999;
  const std::string large = "SELECT zip % 23 AS z, COUNT(*) FROM orders GROUP BY z ORDER BY z";
  StatementOutcome outcome = execute(db, large, small_limit);
  CHECK(outcome.result->device.rfind("gpu", 0) == 0);
  CHECK(outcome.notice.empty());
}

}  // namespace
}  // namespace tally
