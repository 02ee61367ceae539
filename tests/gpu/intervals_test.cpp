// INTERVAL values on a GPU machine: the GPU declines every query that holds one by name (a
// column, a computed difference, an aggregate of one), and auto runs it on the CPU engine,
// whose answer it then returns unchanged.
#include <doctest/doctest.h>

#include <string>

#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

// 20,000 rows: k in 0..96, an interval column of days and hours, a timestamp, a NULL interval
// in every 13th row. Under 24 hours, so that no two spellings of one interval ('1 day' and
// '24:00:00' are equal) make a group whose printed value depends on which row came first.
Database& intervals_db() {
  static Database* db = [] {
    auto* d = new Database();
    test::run_script(*d,
                     "CREATE TABLE spans (k INTEGER, d INTERVAL, ts TIMESTAMP);"
                     "INSERT INTO spans SELECT range % 97, CASE WHEN range % 13 = 0 THEN NULL "
                     "ELSE INTERVAL '1 day' * (range % 5) + INTERVAL '1 hour' * (range % 23) END, "
                     "TIMESTAMP '2024-01-01 00:00:00' + INTERVAL '1 minute' * range FROM "
                     "range(20000)");
    return d;
  }();
  return *db;
}

void check_declined_then_cpu(const std::string& sql) {
  test::check_declined_to_cpu(intervals_db(), sql, "INTERVAL");
}

}  // namespace

TEST_CASE("gpu intervals: every INTERVAL value is declined by name and auto runs the CPU") {
  check_declined_then_cpu("SELECT k, MIN(d), MAX(d), SUM(d), COUNT(d) FROM spans GROUP BY k");
  check_declined_then_cpu("SELECT d, COUNT(*) FROM spans GROUP BY d ORDER BY d");
  check_declined_then_cpu("SELECT COUNT(*) FROM spans WHERE d > INTERVAL '2 days'");
  check_declined_then_cpu(
      "SELECT EXTRACT(DAY FROM ts - TIMESTAMP '2024-01-01 00:00:00') AS days, COUNT(*) FROM "
      "spans GROUP BY days ORDER BY days");
  check_declined_then_cpu("SELECT MAX(ts + d) FROM spans");
}

}  // namespace tally
