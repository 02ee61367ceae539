// The aggregates with no device state (MEDIAN, QUANTILE_*, PERCENTILE_* WITHIN GROUP, MODE,
// STRING_AGG, FIRST/LAST with ORDER BY, APPROX_COUNT_DISTINCT of a string): --device gpu refuses
// them naming the aggregate, and --device auto runs the CPU engine to the CPU's own answer.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <string>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& holistic_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(20000, 0.2, 5));
    return d;
  }();
  return *db;
}

}  // namespace

TEST_CASE("gpu holistic aggregates: the GPU declines them by name and auto runs the CPU") {
  for (const char* call :
       {"MEDIAN(c_integer)", "QUANTILE_CONT(c_decimal, 0.25)", "QUANTILE_DISC(c_date, 0.9)",
        "PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY c_double DESC)", "MODE(c_varchar)",
        "STRING_AGG(c_varchar, ',' ORDER BY c_integer, c_varchar)",
        "LAST(c_bigint ORDER BY c_date NULLS FIRST)", "APPROX_COUNT_DISTINCT(c_varchar)"}) {
    const std::string sql =
        fmt::format("SELECT c_boolean, {}, COUNT(*) FROM nulls GROUP BY 1 ORDER BY 1", call);
    INFO(sql);
    try {
      test::run_on_device(holistic_db(), sql, DeviceChoice::Gpu, "auto");
      FAIL("the GPU ran a CPU-only aggregate");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::Unsupported);
      CHECK(std::string(e.what()).find("is not supported on the GPU") != std::string::npos);
    }
    const Result cpu = test::run_on_device(holistic_db(), sql, DeviceChoice::Cpu, "auto");
    const Result automatic = test::run_on_device(holistic_db(), sql, DeviceChoice::Auto, "auto");
    CHECK(automatic.device.rfind("cpu", 0) == 0);
    CHECK(test::result_difference(cpu, automatic, {}) == "");
  }
}

}  // namespace tally
