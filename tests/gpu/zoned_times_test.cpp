// TIMESTAMPTZ and TIME columns on the GPU against the CPU engine. Both are int64 columns as
// TIMESTAMP is: GROUP BY keys, MIN/MAX/COUNT, filters on constants folded on the host,
// date_trunc/EXTRACT/CAST as device code. TIME +/- INTERVAL of a column is declined by name
// and auto runs it on the CPU engine. NULLs and times before 1970 included.
#include <doctest/doctest.h>

#include <string>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

// 60,000 rows: instants from 1965 to 1973 written with a +02 offset, their UTC times of day,
// a NULL in every 11th row, k in 0..96.
Database& zoned_db() {
  static Database* db = [] {
    auto* d = new Database();
    test::run_script(
        *d,
        "CREATE TABLE zoned (k INTEGER, v BIGINT, tz TIMESTAMPTZ, t TIME);"
        "INSERT INTO zoned SELECT k, v, tz, CAST(tz AS TIME) FROM (SELECT range % 97 AS k, "
        "range AS v, CASE WHEN range % 11 = 0 THEN NULL ELSE CAST(CAST(DATE '1965-01-01' + "
        "CAST(range % 3000 AS INTEGER) AS VARCHAR) || ' ' || CAST(10 + range % 13 AS VARCHAR) || "
        "':' || CAST(10 + range / 7 % 50 AS VARCHAR) || ':' || CAST(10 + range / 3 % 50 AS "
        "VARCHAR) || '.25+02' AS TIMESTAMPTZ) END AS tz FROM range(60000))");
    return d;
  }();
  return *db;
}

void check_gpu(const std::string& sql) {
  INFO(sql);
  CHECK(test::compare_gpu_strategies(zoned_db(), sql) > 0);
}

}  // namespace

TEST_CASE("gpu zoned times: TIMESTAMPTZ keys - MIN - MAX - filters and parts") {
  check_gpu("SELECT k, MIN(tz), MAX(tz), COUNT(tz), COUNT(*) FROM zoned GROUP BY k ORDER BY k");
  check_gpu("SELECT tz, COUNT(*), MIN(v) FROM zoned GROUP BY tz ORDER BY tz");
  check_gpu(
      "SELECT k % 7, COUNT(*), MAX(tz) FROM zoned WHERE tz >= TIMESTAMPTZ '1970-01-01 "
      "02:00:00+02' AND tz < TIMESTAMP '1971-01-01 00:00:00' GROUP BY 1 ORDER BY 1");
  check_gpu(
      "SELECT date_trunc('month', tz) AS m, EXTRACT(HOUR FROM tz) AS h, COUNT(*) FROM zoned "
      "GROUP BY m, h ORDER BY m, h");
  check_gpu(
      "SELECT CAST(tz AS DATE) AS d, CAST(tz AS TIME) AS tod, MIN(v) FROM zoned WHERE tz < "
      "TIMESTAMP '1966-01-01 00:00' GROUP BY d, tod ORDER BY d, tod");
}

TEST_CASE("gpu zoned times: TIME keys - MIN - MAX - filters and EXTRACT") {
  check_gpu("SELECT k, MIN(t), MAX(t), COUNT(t) FROM zoned GROUP BY k ORDER BY k");
  check_gpu("SELECT t, COUNT(*) FROM zoned GROUP BY t ORDER BY t LIMIT 40");
  check_gpu(
      "SELECT k % 5, COUNT(*), MIN(t) FROM zoned WHERE t >= TIME '12:30:00' AND t < '18:00' "
      "GROUP BY 1 ORDER BY 1");
  check_gpu(
      "SELECT EXTRACT(HOUR FROM t) AS h, SUM(EXTRACT(EPOCH FROM t)), COUNT(*) FROM zoned GROUP "
      "BY h ORDER BY h");
}

TEST_CASE("gpu zoned times: TIME plus INTERVAL of a column is declined and auto runs the CPU") {
  test::check_declined_to_cpu(zoned_db(), "SELECT MAX(t + INTERVAL '20 hours') FROM zoned",
                              "TIME +/- INTERVAL");
}

}  // namespace tally
