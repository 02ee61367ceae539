// GROUPING SETS / ROLLUP / CUBE with GROUPING(), and aggregate FILTER, on the GPU against
// the CPU engine under every strategy that takes the query, NULL keys and values included.
// The GPU runs grouping sets as one ordinary GROUP BY per set
// (runtime/session/run_grouping_sets.cpp); FILTER is a conditional argument in the Scan.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& forms_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(50000, 0.2, 23));
    return d;
  }();
  return *db;
}

int compare_strategies(const std::string& sql) {
  return test::compare_gpu_strategies(forms_db(), sql);
}

const char* const kAggregates =
    "COUNT(*), SUM(c_integer), MIN(c_decimal), MAX(c_varchar), SUM(c_wide), AVG(c_bigint)";

const char* const kFiltered =
    "COUNT(*) FILTER (WHERE c_integer > 3), SUM(c_bigint) FILTER (WHERE c_boolean), "
    "MIN(c_date) FILTER (WHERE c_varchar <> 'beta'), SUM(c_decimal) FILTER (WHERE c_smallint "
    "IS NULL), COUNT(c_double) FILTER (WHERE c_double > 0.5), MAX(c_wide) FILTER (WHERE NOT "
    "c_boolean)";

}  // namespace

TEST_CASE("gpu grouping forms: ROLLUP CUBE and GROUPING SETS match the CPU engine") {
  struct Form {
    const char* keys;   // the select items: every key of the form
    const char* group;  // the GROUP BY
  };
  const Form forms[] = {
      {"c_varchar, c_boolean, GROUPING(c_varchar, c_boolean)", "ROLLUP (c_varchar, c_boolean)"},
      {"c_boolean, c_integer % 7, GROUPING(c_integer % 7)", "CUBE (c_boolean, c_integer % 7)"},
      {"c_varchar, c_smallint, GROUPING(c_smallint, c_varchar)",
       "GROUPING SETS ((c_varchar, c_smallint), (c_smallint), ())"},
      {"c_boolean, c_date, c_smallint, GROUPING(c_boolean, c_date, c_smallint)",
       "c_boolean, ROLLUP (c_date, c_smallint)"},
  };
  for (const Form& form : forms) {
    CHECK(compare_strategies(fmt::format("SELECT {}, {} FROM nulls GROUP BY {} ORDER BY ALL",
                                         form.keys, kAggregates, form.group)) >= 2);
  }
}

TEST_CASE("gpu grouping forms: GROUPING tells a NULL key from a rolled-up one") {
  const std::string sql = fmt::format(
      "SELECT c_varchar, c_boolean, GROUPING(c_varchar, c_boolean), {} FROM nulls "
      "GROUP BY CUBE (c_varchar, c_boolean) HAVING COUNT(*) > 10 ORDER BY ALL",
      kAggregates);
  CHECK(compare_strategies(sql) >= 2);
  // Empty input: only the empty set's row.
  CHECK(compare_strategies("SELECT c_boolean, COUNT(*), SUM(c_integer) FROM nulls WHERE "
                           "c_integer < 0 GROUP BY ROLLUP (c_boolean)") >= 1);
}

TEST_CASE("gpu grouping forms: FILTER matches the CPU engine on several key types") {
  for (const char* key : {"c_boolean", "c_varchar", "c_integer % 7", "c_date", "c_bigint"}) {
    CHECK(compare_strategies(fmt::format("SELECT {0}, {1} FROM nulls GROUP BY {0} ORDER BY 1", key,
                                         kFiltered)) >= 2);
  }
  CHECK(compare_strategies(fmt::format("SELECT {} FROM nulls", kFiltered)) >= 1);
  CHECK(compare_strategies(fmt::format("SELECT c_boolean, {} FROM nulls GROUP BY ROLLUP "
                                       "(c_boolean) ORDER BY ALL",
                                       kFiltered)) >= 2);
}

// --device auto runs every set on the GPU and says nothing was declined.
TEST_CASE("gpu grouping forms: --device auto runs ROLLUP with FILTER on the GPU") {
  const std::string sql = fmt::format(
      "SELECT c_varchar, c_boolean, GROUPING(c_varchar, c_boolean), {} FROM nulls "
      "GROUP BY ROLLUP (c_varchar, c_boolean) ORDER BY ALL",
      kFiltered);
  const Result automatic = test::run_on_device(forms_db(), sql, DeviceChoice::Auto, "auto");
  CHECK(automatic.device.rfind("gpu", 0) == 0);
  CHECK(automatic.device.find("cpu") == std::string::npos);
  const Result cpu = test::run_sql(forms_db(), sql);
  CHECK(test::result_difference(cpu, automatic, test::gpu_tolerances(cpu)) == "");
}

}  // namespace tally
