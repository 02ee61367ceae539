// HUGEINT columns on the GPU against the CPU engine: 128-bit values past 2^64 (negative ones
// too) and NULLs as GROUP BY keys alone and beside others, under MIN/MAX/COUNT, in filters
// and checked arithmetic; SUM and AVG where the statistics bound the 128-bit sum (of a
// DECIMAL(38,2) too). A SUM the statistics cannot bound is declined by name, and auto runs
// the CPU.
#include <doctest/doctest.h>

#include <string>

#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

// 60,000 rows: h = (range % 500 - 250) * 2^65 + range % 3 (|h| up to 2^73, NULL in every
// 13th row), s = range % 1000 - 500 (inside 64 bits), k in 0..96.
Database& huge_db() {
  static Database* db = [] {
    auto* d = new Database();
    test::run_script(
        *d,
        "CREATE TABLE huge (k INTEGER, h HUGEINT, s HUGEINT, t HUGEINT);"
        "INSERT INTO huge SELECT range % 97, CASE WHEN range % 13 = 0 THEN NULL ELSE "
        "CAST(range % 500 - 250 AS HUGEINT) * CAST('36893488147419103232' AS HUGEINT) + range % "
        "3 END, range % 1000 - 500, CAST(range % 3 - 1 AS HUGEINT) * "
        "CAST('42535295865117307932921825928971026432' AS HUGEINT) FROM range(60000);"
        "CREATE TABLE amounts (k INTEGER, a DECIMAL(38,2), w DECIMAL(38,2));"
        "INSERT INTO amounts SELECT range % 31, CASE WHEN range % 11 = 0 THEN NULL ELSE "
        "CAST(range * 7 - 200000 AS DECIMAL(38,2)) / 100 END, CAST(range AS DECIMAL(38,2)) * "
        "CAST('1000000000000000000' AS DECIMAL(38,2)) FROM range(60000)");
    return d;
  }();
  return *db;
}

void check_gpu(const std::string& sql) {
  INFO(sql);
  CHECK(test::compare_gpu_strategies(huge_db(), sql) > 0);
}

}  // namespace

TEST_CASE("gpu hugeint: keys alone and beside others") {
  check_gpu("SELECT h, COUNT(*), MIN(k) FROM huge GROUP BY h ORDER BY h");
  check_gpu("SELECT k % 7 AS m, h, COUNT(*) FROM huge GROUP BY m, h ORDER BY m, h");
  check_gpu("SELECT h % 5 AS r, COUNT(*), MAX(k) FROM huge GROUP BY r ORDER BY r");
}

TEST_CASE("gpu hugeint: MIN - MAX - COUNT and filters past 2^64") {
  check_gpu("SELECT k, MIN(h), MAX(h), COUNT(h), COUNT(*) FROM huge GROUP BY k ORDER BY k");
  check_gpu(
      "SELECT k, COUNT(*), MAX(h) FROM huge WHERE h > CAST('1000000000000000000000' AS HUGEINT) "
      "GROUP BY k ORDER BY k");
  check_gpu(
      "SELECT COUNT(*), MIN(h) FROM huge WHERE h BETWEEN -18446744073709551616 AND 5 OR h IS "
      "NULL");
  check_gpu(
      "SELECT k % 3 AS m, MAX(h * 2 + 1), MIN(-h), MAX(ABS(h)) FROM huge GROUP BY m ORDER BY m");
}

// h passes int64 (to 2^73): its exact range, not its saturated int64 statistics, bounds it.
TEST_CASE("gpu hugeint: SUM and AVG of a column the statistics bound") {
  check_gpu("SELECT k, SUM(s), AVG(s), MIN(s), MAX(s) FROM huge GROUP BY k ORDER BY k");
  check_gpu("SELECT SUM(s), SUM(CAST(k AS HUGEINT)), COUNT(s) FROM huge WHERE h IS NOT NULL");
  check_gpu("SELECT k, SUM(h), AVG(h), COUNT(h) FROM huge GROUP BY k ORDER BY k");
}

// A DECIMAL(38,2) is 126 bits by its type; its values bound it to 19 bits (a) and 83 (w,
// past int64), so their sums and variances run on the GPU (w's squares split).
TEST_CASE("gpu hugeint: SUM - AVG - VAR_SAMP of a 38-digit DECIMAL its statistics bound") {
  check_gpu(
      "SELECT k, SUM(a), AVG(a), VAR_SAMP(a), MIN(a), COUNT(a) FROM amounts GROUP BY k ORDER BY k");
  check_gpu("SELECT SUM(a), STDDEV_SAMP(a), MAX(w) FROM amounts WHERE a > 0");
  check_gpu("SELECT k, SUM(w), AVG(w), VAR_SAMP(w) FROM amounts GROUP BY k ORDER BY k");
}

// t holds -2^125, 0 and 2^125: a 128-bit sum of 60,000 of them could overflow.
TEST_CASE("gpu hugeint: an unbounded SUM is declined and auto runs the CPU") {
  const std::string sql = "SELECT k, SUM(t) FROM huge GROUP BY k ORDER BY k";
  try {
    test::run_on_device(huge_db(), sql, DeviceChoice::Gpu, "auto");
    FAIL("SUM of a HUGEINT near 2^125 ran on the GPU");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK(std::string(e.what()).find("SUM") != std::string::npos);
  }
  const Result automatic = test::run_on_device(huge_db(), sql, DeviceChoice::Auto, "auto");
  CHECK(automatic.device.rfind("cpu", 0) == 0);
  const Result cpu = test::run_sql(huge_db(), sql);
  CHECK(test::result_difference(cpu, automatic, test::gpu_tolerances(cpu)) == "");
}

TEST_CASE("gpu hugeint: an overflow on the device is the CPU's error") {
  const std::string sql =
      "SELECT MAX(h * CAST('170141183460469231731687303715884105727' AS HUGEINT)) FROM huge";
  for (DeviceChoice device : {DeviceChoice::Cpu, DeviceChoice::Gpu}) {
    try {
      test::run_on_device(huge_db(), sql, device, "auto");
      FAIL("the product did not overflow");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Execution);
      CHECK(std::string(e.what()).find("hugeint out of range") != std::string::npos);
    }
  }
}

}  // namespace tally
