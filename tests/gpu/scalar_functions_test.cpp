// Scalar functions on the GPU against the CPU engine: numeric and date functions as device
// code in GROUP BY keys, filters and aggregate arguments; string functions of one column as
// per-code lookups; PostgreSQL's domain errors raised through status bits with the CPU's
// message; and --device auto running on the CPU, saying why, where the GPU cannot.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& functions_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 17));
    d->put_table(generate_nulls_table(80000, 0.2, 17));
    return d;
  }();
  return *db;
}

StatementOutcome run_on(const std::string& sql, DeviceChoice device,
                        const std::string& strategy = "auto") {
  ExecOptions options;
  options.device = device;
  options.strategy = strategy;
  std::optional<StatementOutcome> last;
  functions_db().execute_script(sql, options, [&](const StatementOutcome& o) {
    if (o.result) last = o;
  });
  REQUIRE(last.has_value());
  return *last;
}

// The GPU's result under auto and the forced strategies equals the CPU's (strategies that
// do not apply may refuse; auto must run on the GPU).
void check_on_gpu(const std::string& sql) {
  INFO(sql);
  const Result cpu = *run_on(sql, DeviceChoice::Cpu).result;
  // DOUBLE sums depend on the order of atomic adds, and device math may differ in an ulp.
  std::vector<test::ColumnTolerance> tolerances;
  for (const Type& t : cpu.types) {
    tolerances.push_back(t.is_float() ? test::ColumnTolerance{1e-9, 1e-9}
                                      : test::ColumnTolerance{});
  }
  for (std::string strategy : {"auto", "direct", "hash"}) {
    INFO("strategy " << strategy);
    try {
      const Result gpu = *run_on(sql, DeviceChoice::Gpu, strategy).result;
      CHECK(gpu.device.rfind("gpu", 0) == 0);
      CHECK(test::result_difference(cpu, gpu, tolerances) == "");
    } catch (const Error& e) {
      INFO(e.what());
      CHECK(e.kind() == ErrorKind::Unsupported);
      CHECK(strategy != "auto");
    }
  }
}

std::string error_on(const std::string& sql, DeviceChoice device) {
  try {
    run_on(sql, device);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("gpu scalar functions: numeric functions in keys and aggregate arguments") {
  check_on_gpu(
      "SELECT c_boolean, SUM(sqrt(c_double)), SUM(ln(c_real)), SUM(log10(c_real)), "
      "SUM(log(2, c_real)), SUM(exp(c_double)), SUM(power(c_double, 3)), SUM(sign(c_decimal)), "
      "MAX(greatest(c_smallint, c_decimal, 0)), MIN(least(c_double, 1)) FROM nulls "
      "GROUP BY c_boolean");
  check_on_gpu(
      "SELECT floor(c_decimal), ceil(c_double * 3), trunc(c_decimal, 1), COUNT(*), "
      "SUM(c_integer) FROM nulls GROUP BY 1, 2, 3");
  check_on_gpu("SELECT trunc(c_integer, -3), sign(c_smallint), COUNT(*) FROM nulls GROUP BY 1, 2");
  check_on_gpu(
      "SELECT floor(l_extendedprice / 10000), COUNT(*), SUM(ceil(l_discount * 100)), "
      "AVG(sqrt(l_quantity)) FROM lineitem WHERE power(l_tax, 2) < 0.005 GROUP BY 1");
}

TEST_CASE("gpu scalar functions: date functions as keys and in filters") {
  check_on_gpu(
      "SELECT date_trunc('month', l_shipdate), COUNT(*), SUM(l_quantity) FROM lineitem "
      "GROUP BY date_trunc('month', l_shipdate)");
  check_on_gpu(
      "SELECT date_part('year', l_shipdate), EXTRACT(QUARTER FROM l_shipdate), "
      "EXTRACT(DOW FROM l_shipdate), COUNT(*) FROM lineitem GROUP BY 1, 2, 3");
  check_on_gpu(
      "SELECT date_trunc('week', c_date), EXTRACT(WEEK FROM c_date), EXTRACT(DOY FROM c_date), "
      "EXTRACT(ISODOW FROM c_date), COUNT(*) FROM nulls GROUP BY 1, 2, 3, 4");
  check_on_gpu(
      "SELECT COUNT(*), SUM(l_extendedprice) FROM lineitem WHERE date_trunc('year', l_shipdate) "
      "= DATE '1995-01-01' AND EXTRACT(ISODOW FROM l_shipdate) < 6");
}

TEST_CASE("gpu scalar functions: string functions of one column") {
  check_on_gpu(
      "SELECT upper(c_varchar), length(c_varchar), COUNT(*), SUM(c_integer) FROM nulls "
      "GROUP BY 1, 2");
  check_on_gpu(
      "SELECT left(l_shipmode, 2) || '.', COUNT(*) FROM lineitem WHERE l_shipinstruct ILIKE "
      "'%return%' AND NOT starts_with(lower(l_shipmode), 'r') GROUP BY 1");
  check_on_gpu(
      "SELECT c_boolean, COUNT(DISTINCT substring(c_varchar FROM 2 FOR 2)), "
      "MAX(replace(trim(c_varchar), 'a', 'A')), MIN(concat(c_varchar, '-')) FROM nulls "
      "GROUP BY c_boolean");
}

TEST_CASE("gpu scalar functions: domain errors carry the CPU's message") {
  for (const char* sql :
       {"SELECT SUM(sqrt(c_smallint)) FROM nulls", "SELECT SUM(ln(c_integer)) FROM nulls",
        "SELECT SUM(log(c_smallint)) FROM nulls WHERE c_smallint < 0",
        "SELECT SUM(power(c_smallint, 0.5)) FROM nulls WHERE c_smallint < 0",
        "SELECT SUM(power(c_integer, -1)) FROM nulls WHERE c_integer = 0"}) {
    INFO(sql);
    const std::string cpu = error_on(sql, DeviceChoice::Cpu);
    CHECK(!cpu.empty());
    CHECK(error_on(sql, DeviceChoice::Gpu) == cpu);
  }
  check_on_gpu("SELECT SUM(CASE WHEN c_smallint >= 0 THEN sqrt(c_smallint) END) FROM nulls");
}

TEST_CASE("gpu scalar functions: auto runs on the CPU and says why where the GPU cannot") {
  const StatementOutcome o = run_on(
      "SELECT strftime(c_date, '%Y-%m'), COUNT(*) FROM nulls GROUP BY 1", DeviceChoice::Auto);
  CHECK(o.result->device.rfind("cpu", 0) == 0);
  CHECK(o.notice.find("strftime(c_date, '%Y-%m')") != std::string::npos);
  CHECK_THROWS_AS(run_on("SELECT left(c_varchar, c_smallint), COUNT(*) FROM nulls GROUP BY 1",
                         DeviceChoice::Gpu),
                  Error);
}

}  // namespace tally
