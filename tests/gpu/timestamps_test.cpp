// TIMESTAMP columns on the GPU against the CPU engine: an int64 column as a GROUP BY key,
// under MIN/MAX/COUNT, in filters against TIMESTAMP and DATE constants (folded on the host,
// with and without an INTERVAL), and under date_trunc/EXTRACT/CAST AS DATE as device code.
// Times before 1970 and NULLs included; every grouping strategy compared.
#include <doctest/doctest.h>

#include <string>

#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

// 60,000 rows: times from 1965 to 1973 (the days around 0 are negative micros), a NULL in
// every 11th row, k in 0..96.
Database& stamps_db() {
  static Database* db = [] {
    auto* d = new Database();
    test::run_script(
        *d,
        "CREATE TABLE stamps (k INTEGER, v BIGINT, ts TIMESTAMP);"
        "INSERT INTO stamps SELECT range % 97, range, CASE WHEN range % 11 = 0 THEN NULL ELSE "
        "CAST(CAST(DATE '1965-01-01' + CAST(range % 3000 AS INTEGER) AS VARCHAR) || ' ' || "
        "CAST(10 + range % 13 AS VARCHAR) || ':' || CAST(10 + range / 7 % 50 AS VARCHAR) || "
        "':' || CAST(10 + range / 3 % 50 AS VARCHAR) || '.25' AS TIMESTAMP) END "
        "FROM range(60000)");
    return d;
  }();
  return *db;
}

void check_gpu(const std::string& sql) {
  INFO(sql);
  CHECK(test::compare_gpu_strategies(stamps_db(), sql) > 0);
}

}  // namespace

TEST_CASE("gpu timestamps: MIN - MAX - COUNT by key and TIMESTAMP keys") {
  check_gpu("SELECT k, MIN(ts), MAX(ts), COUNT(ts), COUNT(*) FROM stamps GROUP BY k ORDER BY k");
  check_gpu("SELECT ts, COUNT(*), MIN(v) FROM stamps GROUP BY ts ORDER BY ts");
  check_gpu("SELECT MIN(ts), MAX(ts), COUNT(ts) FROM stamps");
}

TEST_CASE("gpu timestamps: filters on TIMESTAMP and DATE constants") {
  check_gpu(
      "SELECT k, COUNT(*), MAX(ts) FROM stamps WHERE ts >= TIMESTAMP '1969-12-31 12:00:00' AND "
      "ts < DATE '1970-01-02' GROUP BY k ORDER BY k");
  check_gpu(
      "SELECT COUNT(*), MIN(ts) FROM stamps WHERE ts > TIMESTAMP '1970-01-01 00:00:00' - "
      "INTERVAL '1 month 2 hours' OR ts IS NULL");
  check_gpu(
      "SELECT k % 5, MIN(ts) FROM stamps WHERE ts BETWEEN '1968-02-28 10:00' AND '1968-03-01 "
      "23:00' "
      "GROUP BY 1 ORDER BY 1");
}

TEST_CASE("gpu timestamps: date_trunc - EXTRACT and CAST AS DATE in keys") {
  check_gpu(
      "SELECT date_trunc('month', ts) AS m, COUNT(*), MIN(ts) FROM stamps GROUP BY m ORDER BY m");
  check_gpu(
      "SELECT EXTRACT(HOUR FROM ts) AS h, EXTRACT(YEAR FROM ts) AS y, COUNT(*) FROM stamps GROUP "
      "BY h, y ORDER BY h, y");
  check_gpu(
      "SELECT CAST(ts AS DATE) AS d, MAX(ts) FROM stamps WHERE ts < TIMESTAMP '1966-01-01 00:00' "
      "GROUP BY d ORDER BY d");
  check_gpu(
      "SELECT date_trunc('hour', ts) AS h, COUNT(*) FROM stamps WHERE EXTRACT(MINUTE FROM ts) > "
      "30 GROUP BY h ORDER BY h LIMIT 50");
  check_gpu("SELECT SUM(EXTRACT(EPOCH FROM ts)), SUM(EXTRACT(SECOND FROM ts)) FROM stamps");
}

}  // namespace tally
