// GROUPING SETS / ROLLUP / CUBE with GROUPING(), and aggregate FILTER, on the GPU against
// the CPU engine under every strategy that takes the query, NULL keys and values included.
// The GPU runs grouping sets in one pass over the rows, the set id a key, or as one ordinary
// GROUP BY per set (runtime/session/run_grouping_sets.cpp); both are compared here. FILTER is
// a conditional argument in the Scan.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <optional>
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

// The last statement of `sql` on the GPU under `strategy`, the sets run as `pass` says
// (SET grouping_sets); its --explain text into `explain`, its notice into `notice`.
Result run_sets(const std::string& sql, const std::string& strategy, const std::string& pass,
                std::string& explain, std::string* notice = nullptr) {
  ExecOptions options;
  options.device = DeviceChoice::Gpu;
  options.strategy = strategy;
  options.grouping_sets = pass;
  options.explain = true;
  std::optional<Result> last;
  forms_db().execute_script(sql, options, [&](const StatementOutcome& outcome) {
    if (!outcome.result) return;
    last = outcome.result;
    explain = outcome.explain;
    if (notice) *notice = outcome.notice;
  });
  REQUIRE(last.has_value());
  return *last;
}

// SET grouping_sets = 'auto': the way the plans favour (compiler/plan/grouping_sets_choice.h),
// each way's plans in --explain, and a notice saying why where the sets ran apart.
void check_auto_way(const std::string& sql, const Result& cpu,
                    const std::vector<test::ColumnTolerance>& tolerances) {
  std::string explain;
  std::string notice;
  const Result automatic = run_sets(sql, "auto", "auto", explain, &notice);
  CHECK(test::result_difference(cpu, automatic, tolerances) == "");
  CHECK(explain.find("\n  one pass: ") != std::string::npos);
  CHECK(explain.find("\n  set 1: ") != std::string::npos);
  const bool per_set =
      explain.find("grouping sets ran: one GROUP BY pass per set (") != std::string::npos;
  CHECK(per_set == (explain.find("; auto chose it: ") == std::string::npos));
  CHECK(per_set ==
        (notice.find("grouping sets ran one GROUP BY pass per set: ") != std::string::npos));
}

// `sql` in one pass and per set, under every strategy that takes the one-pass plan, each
// against the CPU engine; returns how many strategies ran it in one pass.
int compare_one_pass(const std::string& sql) {
  INFO(sql);
  const Result cpu = test::run_sql(forms_db(), sql);
  const auto tolerances = test::gpu_tolerances(cpu);
  int ran = 0;
  for (const char* strategy : {"auto", "thread", "block", "direct", "hash"}) {
    INFO("strategy " << strategy);
    std::string explain;
    try {
      const Result one = run_sets(sql, strategy, "one_pass", explain);
      CHECK(explain.find("grouping sets ran: ") != std::string::npos);
      CHECK(explain.find("in one pass over the rows on the GPU") != std::string::npos);
      CHECK(one.device.rfind("gpu", 0) == 0);
      CHECK(test::result_difference(cpu, one, tolerances) == "");
      ++ran;
    } catch (const Error& e) {
      INFO(e.what());
      CHECK(e.kind() == ErrorKind::Unsupported);  // a strategy that cannot take the shape
      CHECK(std::string(strategy) != "auto");
    }
  }
  std::string explain;
  const Result per_set = run_sets(sql, "auto", "per_set", explain);
  CHECK(explain.find("one GROUP BY pass per set") != std::string::npos);
  CHECK(test::result_difference(cpu, per_set, tolerances) == "");
  check_auto_way(sql, cpu, tolerances);
  return ran;
}

}  // namespace

TEST_CASE("gpu grouping forms: one pass matches the CPU engine under each strategy") {
  // c_varchar, c_boolean, c_smallint and c_date have real NULLs (20% of the rows): GROUPING
  // tells them from the rolled-up NULLs.
  const char* const forms[] = {
      "SELECT c_varchar, c_boolean, GROUPING(c_varchar, c_boolean), {0} FROM nulls "
      "GROUP BY ROLLUP (c_varchar, c_boolean) ORDER BY ALL",
      "SELECT c_boolean, c_integer % 7, GROUPING(c_boolean), GROUPING(c_integer % 7), {0} "
      "FROM nulls GROUP BY CUBE (c_boolean, c_integer % 7) ORDER BY ALL",
      "SELECT c_varchar, c_smallint, GROUPING(c_smallint, c_varchar), {0} FROM nulls "
      "GROUP BY GROUPING SETS ((c_varchar, c_smallint), (c_smallint), (), (c_smallint)) "
      "ORDER BY ALL",
      "SELECT c_boolean, c_date, c_smallint, GROUPING(c_boolean, c_date, c_smallint), {0} "
      "FROM nulls GROUP BY c_boolean, ROLLUP (c_date, c_smallint) HAVING COUNT(*) > 3 "
      "ORDER BY 5 DESC, 1, 2, 3, 4 LIMIT 40",
      // A hashed key (no bounded domain) beside the set id.
      "SELECT c_bigint, c_boolean, GROUPING(c_bigint), {0} FROM nulls "
      "GROUP BY ROLLUP (c_bigint, c_boolean) ORDER BY ALL",
      // FILTER, and a DISTINCT count per group of each set.
      "SELECT c_varchar, c_boolean, COUNT(DISTINCT c_smallint), {1} FROM nulls "
      "GROUP BY CUBE (c_varchar, c_boolean) ORDER BY ALL",
  };
  for (const char* form : forms) {
    CHECK(compare_one_pass(fmt::format(fmt::runtime(form), kAggregates, kFiltered)) >= 2);
  }
}

TEST_CASE("gpu grouping forms: one pass keeps the empty set's row when no row passes") {
  for (const char* having : {"", " HAVING COUNT(*) = 0", " HAVING COUNT(*) > 0"}) {
    CHECK(compare_one_pass(fmt::format(
              "SELECT c_boolean, GROUPING(c_boolean), COUNT(*), SUM(c_integer), MAX(c_varchar) "
              "FROM nulls WHERE c_integer < -1000 GROUP BY ROLLUP (c_boolean){} ORDER BY ALL",
              having)) >= 1);
  }
}

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
