// ARG_MIN / ARG_MAX (MIN_BY / MAX_BY) on the GPU against the CPU engine under every strategy:
// NULLs, empty groups, dictionary strings on either side, and the nulls table's ten values a
// column, so most groups tie on the key and the tie rule (the least value wins) decides.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& arg_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(60000, 0.2, 13));
    return d;
  }();
  return *db;
}

// Exact on every column: the kept value is one of the rows' own, never a sum.
int compare_strategies(const std::string& sql) {
  return test::compare_gpu_strategies(arg_db(), sql, 0.0);
}

const char* const kArgAggregates =
    "ARG_MIN(c_varchar, c_integer), ARG_MAX(c_varchar, c_integer), MIN_BY(c_double, c_smallint), "
    "MAX_BY(c_real, c_date), ARG_MIN(c_decimal, c_double), ARG_MAX(c_date, c_decimal), "
    "ARG_MIN(c_boolean, c_bigint), ARG_MAX(c_integer, c_varchar), ARG_MIN(c_smallint, c_real), "
    "ARG_MAX(c_bigint, c_boolean), COUNT(*)";

}  // namespace

TEST_CASE("gpu arg_min_max: every strategy matches the CPU engine - NULLs and ties included") {
  for (const char* key : {"c_boolean", "c_varchar", "c_integer % 7", "c_smallint, c_date"}) {
    CHECK(compare_strategies(fmt::format("SELECT {0}, {1} FROM nulls GROUP BY {0} ORDER BY ALL",
                                         key, kArgAggregates)) >= 2);
  }
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls", kArgAggregates)) >= 1);
  // No rows at all, and groups whose every row has a NULL argument: NULL on both.
  CHECK(compare_strategies(
            fmt::format("SELECT {} FROM nulls WHERE c_integer < 0", kArgAggregates)) >= 1);
  CHECK(compare_strategies("SELECT c_smallint, ARG_MIN(c_varchar, c_integer) FILTER (WHERE "
                           "c_smallint IS NULL), MAX_BY(c_date, c_double) FILTER (WHERE c_boolean) "
                           "FROM nulls GROUP BY 1 ORDER BY 1") >= 2);
}

// Computed arguments (a string domain's ids, arithmetic) and the pair beside other states.
TEST_CASE("gpu arg_min_max: computed arguments and other aggregates beside them") {
  CHECK(compare_strategies(
            "SELECT c_integer % 5, ARG_MAX(upper(c_varchar), c_double * 2 - c_smallint), "
            "ARG_MIN(c_integer + c_smallint, upper(c_varchar)), MIN(c_date), SUM(c_decimal), "
            "ARG_MIN(c_date, -c_bigint) FROM nulls GROUP BY 1 ORDER BY 1") >= 2);
}

// -0.0 and 0.0 tie on the key (they compare equal) and as values the -0.0 is kept by both
// engines; the comparison with tolerances would not see the sign, so it is checked here.
TEST_CASE("gpu arg_min_max: negative zero keys tie and negative zero values win") {
  const std::string sql =
      "SELECT c_boolean, ARG_MIN(c_double * 0 * (CASE WHEN c_integer > 4000 THEN -1 ELSE 1 END), "
      "c_real * 0 * (CASE WHEN c_bigint > 50000000000 THEN -1 ELSE 1 END)), "
      "ARG_MAX(c_double * 0 * (CASE WHEN c_integer > 4000 THEN -1 ELSE 1 END), c_smallint * 0.0) "
      "FROM nulls GROUP BY 1 ORDER BY 1";
  const Result cpu = test::run_sql(arg_db(), sql);
  for (const char* strategy : {"auto", "hash", "direct", "block"}) {
    INFO(strategy);
    const Result gpu = test::run_on_device(arg_db(), sql, DeviceChoice::Gpu, strategy);
    REQUIRE(gpu.rows.size() == cpu.rows.size());
    for (size_t r = 0; r < cpu.rows.size(); ++r) {
      for (size_t c : {1, 2}) {
        REQUIRE(!cpu.rows[r][c].null);
        CHECK(std::signbit(cpu.rows[r][c].f));
        CHECK(std::signbit(gpu.rows[r][c].f) == std::signbit(cpu.rows[r][c].f));
      }
    }
  }
}

// A DECIMAL of more than 18 digits does not fit the state word's halves: its key and value
// images merge in two passes (ArgMinWide), beside every other argument type on either side;
// the nulls table's c_wide has ten values, so most groups tie on a wide key.
TEST_CASE("gpu arg_min_max: a wide DECIMAL argument on either side matches the CPU engine") {
  const char* const wide =
      "ARG_MIN(c_wide, c_integer), MAX_BY(c_integer, c_wide), ARG_MAX(c_wide, c_wide), "
      "ARG_MIN(c_varchar, c_wide), ARG_MAX(c_wide, c_double), MIN_BY(c_double, c_wide), "
      "ARG_MIN(c_wide, c_varchar), ARG_MAX(c_date, -c_wide), ARG_MIN(c_real, c_wide), COUNT(*)";
  for (const char* key : {"c_boolean", "c_integer % 7"}) {
    CHECK(compare_strategies(
              fmt::format("SELECT {0}, {1} FROM nulls GROUP BY {0} ORDER BY 1", key, wide)) >= 2);
  }
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls", wide)) >= 1);
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls WHERE c_integer < 0", wide)) >= 1);
  const Result automatic =
      test::run_on_device(arg_db(), fmt::format("SELECT c_varchar, {} FROM nulls GROUP BY 1", wide),
                          DeviceChoice::Auto, "auto");
  CHECK(automatic.device.rfind("gpu", 0) == 0);
}

}  // namespace tally
