// The statistical aggregates on the GPU (COVAR_POP/SAMP, CORR, REGR_*, SKEWNESS, KURTOSIS)
// against the CPU engine, under every strategy that takes the query, NULLs included: the
// GPU's two passes and the CPU's Welford and Pébay updates agree to 1e-9 relative (1e-9
// absolute near 0), and both give NULL where PostgreSQL and DuckDB do. Exact variances whose
// squares pass 128 bits agree bit for bit.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& stats_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(60000, 0.2, 11));
    return d;
  }();
  return *db;
}

// `sql` on the GPU under every strategy against the CPU engine; returns how many ran.
int compare_strategies(const std::string& sql, double relative = 1e-9) {
  return test::compare_gpu_strategies(stats_db(), sql, relative);
}

Result run_on(const std::string& sql, DeviceChoice device, const std::string& strategy) {
  return test::run_on_device(stats_db(), sql, device, strategy);
}

const char* const kCoMoments =
    "COVAR_POP(c_double, c_integer), COVAR_SAMP(c_real, c_smallint), "
    "CORR(c_double, c_double * 2 + c_smallint), CORR(c_integer, c_bigint), "
    "REGR_SLOPE(c_double, c_smallint), REGR_INTERCEPT(c_double, c_smallint), "
    "REGR_COUNT(c_double, c_smallint), REGR_R2(c_real, c_decimal), REGR_AVGX(c_double, c_decimal), "
    "REGR_AVGY(c_double, c_decimal), REGR_SXX(c_real, c_integer), REGR_SYY(c_real, c_integer), "
    "REGR_SXY(c_real, c_integer), COUNT(*)";

const char* const kMoments =
    "SKEWNESS(c_double), KURTOSIS(c_double), SKEWNESS(c_integer + c_smallint), "
    "KURTOSIS(c_decimal), VAR_SAMP(c_double), COUNT(*)";

}  // namespace

TEST_CASE("gpu stat aggregates: COVAR, CORR and REGR_* match the CPU engine - NULLs included") {
  for (const char* key : {"c_boolean", "c_varchar", "c_integer % 7"}) {
    CHECK(compare_strategies(fmt::format("SELECT {0}, {1} FROM nulls GROUP BY {0} ORDER BY 1", key,
                                         kCoMoments)) >= 2);
  }
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls", kCoMoments)) >= 1);
  // No rows: NULL (REGR_COUNT 0) on both.
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls WHERE c_integer < 0", kCoMoments)) >=
        1);
}

TEST_CASE("gpu stat aggregates: SKEWNESS and KURTOSIS match the CPU engine - NULLs included") {
  for (const char* key : {"c_boolean", "c_varchar", "c_integer % 7"}) {
    CHECK(compare_strategies(fmt::format("SELECT {0}, {1} FROM nulls GROUP BY {0} ORDER BY 1", key,
                                         kMoments)) >= 2);
  }
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls", kMoments)) >= 1);
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls WHERE c_integer < 0", kMoments)) >= 1);
}

// Groups where x (or the values) have no spread: CORR, REGR_SLOPE, SKEWNESS are NULL on both
// engines, also for a constant 0.1 whose first-pass mean on the GPU misses it by an ulp.
TEST_CASE("gpu stat aggregates: groups without spread give NULL on both engines") {
  const std::string sql =
      "SELECT c_smallint, CORR(c_double, c_smallint), REGR_SLOPE(c_double, c_smallint), "
      "REGR_R2(c_smallint, c_double), CORR(c_double, c_smallint * 0 + 0.1), "
      "REGR_INTERCEPT(c_double, c_smallint * 0 + 0.1), SKEWNESS(c_smallint * 0 + 0.1), "
      "KURTOSIS(c_smallint), COVAR_POP(c_double, c_smallint) FROM nulls GROUP BY c_smallint "
      "ORDER BY 1";
  CHECK(compare_strategies(sql) >= 2);
  const Result cpu = test::run_sql(stats_db(), sql);
  for (size_t r = 0; r < cpu.rows.size(); ++r) {
    if (cpu.rows[r][0].null) continue;  // the NULL key's group has every c_smallint NULL too
    for (size_t c : {1, 2, 4, 5, 6, 7}) CHECK(cpu.rows[r][c].null);
    CHECK(cpu.rows[r][3].f == 1.0);  // y constant, x spread: R2 is 1
  }
}

// Large values beside a small spread: neither engine cancels them away.
// The columns are nearly uncorrelated (a covariance of -0.005 beside standard deviations of
// 0.7 and 2.9): the CPU's running mean near 1e9 rounds by ~1e-7 an update, the GPU's
// two passes differently, and on the H100 the two agreed to 2.8e-6 relative, not 1e-9. Naive
// sums of products would lose every digit here (terms of 1e18 for a result of 1e2).
TEST_CASE("gpu stat aggregates: a large offset beside a small spread keeps its digits") {
  CHECK(compare_strategies(
            "SELECT c_boolean, COVAR_SAMP(c_double + 1e9, c_smallint + 1e9), "
            "CORR(c_double + 1e9, c_double * 3 + 1e9), REGR_SLOPE(c_double + 1e9, c_double + 1e9), "
            "SKEWNESS(c_double + 1e6), KURTOSIS(c_double + 1e6) FROM nulls GROUP BY 1 ORDER BY 1",
            1e-5) >= 2);
}

// Exact variances whose squares pass 128 bits (c_wide: DECIMAL(30,4), 100 bits by its type;
// a BIGINT times 10^7: 60 bits, 120 squared, over 2^16 rows) keep their values' halves' products on
// the GPU and 256 bits on the CPU: both compute the same integer numerator, so the doubles agree
// bit for bit.
TEST_CASE("gpu stat aggregates: exact variances past 128-bit squares match bit for bit") {
  const char* const aggregates =
      "VAR_SAMP(c_wide), STDDEV_SAMP(c_wide), VAR_SAMP(c_wide - 1000000000000000000.5), "
      "VARIANCE(c_bigint * 10000000), STDDEV(c_bigint * 10000000), COUNT(*)";
  for (const char* key : {"c_boolean", "c_integer % 7"}) {
    CHECK(compare_strategies(
              fmt::format("SELECT {0}, {1} FROM nulls GROUP BY {0} ORDER BY 1", key, aggregates),
              0) >= 3);
  }
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls", aggregates), 0) >= 1);
  const std::string sql = fmt::format("SELECT c_varchar, {} FROM nulls GROUP BY 1", aggregates);
  CHECK(run_on(sql, DeviceChoice::Auto, "auto").device.rfind("gpu", 0) == 0);
}

// Every aggregate runs on the GPU: auto takes the GPU and says nothing was declined.
TEST_CASE("gpu stat aggregates: --device auto runs them on the GPU") {
  const std::string sql = fmt::format("SELECT c_boolean, {}, {} FROM nulls GROUP BY 1 ORDER BY 1",
                                      kCoMoments, kMoments);
  const Result automatic = run_on(sql, DeviceChoice::Auto, "auto");
  CHECK(automatic.device.rfind("gpu", 0) == 0);
  const Result cpu = test::run_sql(stats_db(), sql);
  CHECK(test::result_difference(cpu, automatic, test::gpu_tolerances(cpu)) == "");
}

}  // namespace tally
