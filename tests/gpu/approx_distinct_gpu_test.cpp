// APPROX_COUNT_DISTINCT on the GPU against the CPU engine: both hash each value alike and keep
// the same HyperLogLog registers (templates/tally_hll.cuh), so the estimates are equal, not
// merely close, in linear counting's range and the harmonic estimate's above it.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& sketch_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(60000, 0.2, 29));
    d->put_table(generate_atable(400000, 1u << 18, 0.0, 7));
    return d;
  }();
  return *db;
}

int compare_strategies(const std::string& sql) {
  return test::compare_gpu_strategies(sketch_db(), sql, 0.0);
}

}  // namespace

TEST_CASE("gpu approx_count_distinct: every hashed type matches the CPU engine - NULLs included") {
  const std::string calls =
      "APPROX_COUNT_DISTINCT(c_bigint), APPROX_COUNT_DISTINCT(c_integer), "
      "APPROX_COUNT_DISTINCT(c_smallint), APPROX_COUNT_DISTINCT(c_double), "
      "APPROX_COUNT_DISTINCT(c_real), APPROX_COUNT_DISTINCT(c_decimal), "
      "APPROX_COUNT_DISTINCT(c_wide), APPROX_COUNT_DISTINCT(c_date), "
      "APPROX_COUNT_DISTINCT(c_boolean), APPROX_COUNT_DISTINCT(c_integer * 3 - c_smallint), "
      "COUNT(*)";
  for (const char* key : {"c_boolean", "c_integer % 7", "c_smallint, c_date"}) {
    CHECK(compare_strategies(fmt::format("SELECT {0}, {1} FROM nulls GROUP BY {0} ORDER BY ALL",
                                         key, calls)) >= 2);
  }
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls", calls)) >= 1);
  // No rows: 0, not NULL, on both.
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls WHERE c_integer < 0", calls)) >= 1);
}

// Hundreds of thousands of distinct values: the harmonic estimate, not linear counting; a
// group's rows arrive from many blocks at once, so registers race.
TEST_CASE("gpu approx_count_distinct: many distinct values and many groups") {
  CHECK(compare_strategies("SELECT APPROX_COUNT_DISTINCT(col1), APPROX_COUNT_DISTINCT(col2), "
                           "COUNT(*) FROM atable") >= 1);
  CHECK(compare_strategies("SELECT col1 % 4, APPROX_COUNT_DISTINCT(col1), "
                           "APPROX_COUNT_DISTINCT(col2) FROM atable GROUP BY 1 ORDER BY 1") >= 2);
  CHECK(compare_strategies("SELECT col1 % 5000, APPROX_COUNT_DISTINCT(col2) FROM atable GROUP "
                           "BY 1 ORDER BY 1") >= 2);
}

TEST_CASE("gpu approx_count_distinct: strings and table strategies decline by name") {
  try {
    test::run_on_device(sketch_db(), "SELECT APPROX_COUNT_DISTINCT(c_varchar) FROM nulls",
                        DeviceChoice::Gpu, "auto");
    FAIL("the GPU hashed a string");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK(std::string(e.what()).find("APPROX_COUNT_DISTINCT of a string") != std::string::npos);
  }
  for (const char* strategy : {"thread", "block"}) {
    CHECK_THROWS_WITH_AS(test::run_on_device(sketch_db(),
                                             "SELECT c_boolean, APPROX_COUNT_DISTINCT(c_bigint) "
                                             "FROM nulls GROUP BY 1",
                                             DeviceChoice::Gpu, strategy),
                         doctest::Contains("1 KiB sketch"), Error);
  }
}

}  // namespace tally
