// date_trunc keys counted in periods (KeyEncoding::period): the Scan's digit is the period
// index of the date itself and the Finalizer's key the period's first day. Every unit under
// every strategy must give the CPU engine's groups: NULL dates, dates before 1970, weeks across
// year ends, beside other keys and in a filtered table.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& period_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 23));
    ExecOptions cpu;
    cpu.device = DeviceChoice::Cpu;
    d->execute_script(
        "CREATE TABLE d (day DATE, v INTEGER); INSERT INTO d SELECT CASE WHEN range % 13 = 0 "
        "THEN NULL ELSE DATE '1965-03-01' + CAST(range * 3 AS INTEGER) END, range % 7 FROM "
        "range(20000)",
        cpu, [](const StatementOutcome&) {});
    return d;
  }();
  return *db;
}

}  // namespace

TEST_CASE("gpu period keys: date_trunc keys give the CPU engine's groups") {
  for (const char* unit : {"month", "quarter", "year", "decade", "week"}) {
    INFO(unit);
    const std::string by_unit = fmt::format("date_trunc('{}', day)", unit);
    CHECK(test::compare_gpu_strategies(
              period_db(), fmt::format("SELECT {0}, COUNT(*), SUM(v), MIN(day) FROM d GROUP BY 1",
                                       by_unit)) >= 3);
    CHECK(test::compare_gpu_strategies(
              period_db(),
              fmt::format("SELECT l_returnflag, date_trunc('{}', l_shipdate), COUNT(*), "
                          "SUM(l_quantity) FROM lineitem WHERE l_discount > 0.03 GROUP BY 1, 2",
                          unit)) >= 3);
  }
  // The quarter key of queries/: 7 years x 28 quarters, not 7 x 2,527 days.
  const std::string sql =
      "SELECT EXTRACT(YEAR FROM l_shipdate), date_trunc('quarter', l_shipdate), COUNT(*), "
      "SUM(l_quantity) FROM lineitem GROUP BY 1, 2";
  const auto [gpu, explain] = test::run_explained(period_db(), sql, "auto");
  INFO(explain);
  CHECK(
      explain.find("digit = the quarter holding the date, counted from quarter 7968, in [0, 28)") !=
      std::string::npos);
  const Result cpu = test::run_sql(period_db(), sql);
  CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
}

}  // namespace tally
