// HAVING in the GPU's Finalizer (compiler/plan/device_having.h): under every strategy, against
// the CPU engine, over keys and aggregates of each number, time and boolean type with NULLs,
// a parameter, an error raised inside HAVING, ORDER BY ... LIMIT after it, and a HAVING that
// stays on the host; --explain says where it ran.
#include <doctest/doctest.h>

#include <optional>

#include "compiler/common/error.h"
#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& having_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 13));
    d->put_table(generate_nulls_table(60000, 0.2, 13));
    return d;
  }();
  return *db;
}

struct Run {
  Result result;
  std::string explain;
};

Run run(const std::string& sql, DeviceChoice device, const std::vector<std::string>& params = {}) {
  ExecOptions options;
  options.device = device;
  options.explain = true;
  options.parameters = params;
  std::optional<Run> last;
  having_db().execute_script(sql, options, [&](const StatementOutcome& o) {
    if (o.result) last = Run{*o.result, o.explain};
  });
  REQUIRE(last.has_value());
  return *last;
}

bool in_finalizer(const Run& r) {
  return r.explain.find("HAVING: in the Finalizer") != std::string::npos;
}

}  // namespace

TEST_CASE("gpu having: the Finalizer keeps the groups the CPU engine keeps, under every strategy") {
  const char* const queries[] = {
      // TPC-H Q18's inner query: a few hundred of 75,000 orders.
      "SELECT l_orderkey, SUM(l_quantity) FROM lineitem GROUP BY l_orderkey "
      "HAVING SUM(l_quantity) > 250",
      "SELECT l_returnflag, l_linestatus, COUNT(*), AVG(l_discount) FROM lineitem GROUP BY 1, 2 "
      "HAVING AVG(l_discount) >= 0.05 AND COUNT(*) > 10",
      "SELECT l_partkey % 100, MIN(l_shipdate), MAX(l_extendedprice) FROM lineitem GROUP BY 1 "
      "HAVING MIN(l_shipdate) < DATE '1992-01-10' OR MAX(l_extendedprice) > 90000",
      "SELECT c_boolean, c_date, COUNT(*), SUM(c_decimal) FROM nulls GROUP BY 1, 2 "
      "HAVING SUM(c_decimal) IS NULL OR c_date IS NULL OR c_boolean",
      "SELECT c_smallint, COUNT(c_integer), SUM(c_bigint), MIN(c_real) FROM nulls GROUP BY 1 "
      "HAVING c_smallint IN (1, 3, 5) AND COALESCE(MIN(c_real), 0) >= 0 "
      "AND CASE WHEN COUNT(c_integer) > 3 THEN SUM(c_bigint) ELSE -1 END > 0",
      "SELECT c_integer, SUM(c_wide), MAX(c_double) FROM nulls GROUP BY 1 "
      "HAVING NOT (SUM(c_wide) < 0) AND -MAX(c_double) < 0",
      "SELECT COUNT(*), SUM(c_decimal) FROM nulls HAVING COUNT(*) > 5",
      "SELECT COUNT(*) FROM nulls HAVING COUNT(*) > 1000000",
      "SELECT l_orderkey, SUM(l_quantity) AS q FROM lineitem GROUP BY 1 "
      "HAVING SUM(l_quantity) > 200 ORDER BY q DESC, l_orderkey LIMIT 7",
  };
  for (const char* sql : queries) {
    INFO(sql);
    CHECK(in_finalizer(run(sql, DeviceChoice::Gpu)));
    CHECK(test::compare_gpu_strategies(having_db(), sql) > 0);
  }
}

TEST_CASE("gpu having: a parameter, an error inside HAVING and a HAVING left to the host") {
  const char* with_parameter =
      "SELECT l_linenumber, COUNT(*) FROM lineitem GROUP BY 1 HAVING COUNT(*) > ?";
  for (const char* value : {"0", "40000", "1000000"}) {
    INFO(value);
    const Run gpu = run(with_parameter, DeviceChoice::Gpu, {value});
    CHECK(in_finalizer(gpu));
    const Run cpu = run(with_parameter, DeviceChoice::Cpu, {value});
    CHECK(test::result_difference(cpu.result, gpu.result, test::gpu_tolerances(cpu.result)) == "");
  }
  const char* divides =
      "SELECT c_smallint, SUM(c_integer) FROM nulls GROUP BY 1 "
      "HAVING SUM(c_integer) / (COUNT(*) - COUNT(*)) > 1";
  CHECK_THROWS_WITH_AS(run(divides, DeviceChoice::Gpu), doctest::Contains("division by zero"),
                       Error);
  CHECK_THROWS_WITH_AS(run(divides, DeviceChoice::Cpu), doctest::Contains("division by zero"),
                       Error);
  // A computed string key beside an aggregate: the host evaluates HAVING over every group the
  // GPU returns.
  const char* on_host =
      "SELECT upper(c_varchar), COUNT(*) FROM nulls GROUP BY 1 "
      "HAVING upper(c_varchar) > 'D' OR COUNT(*) < 10 ORDER BY 1";
  CHECK(!in_finalizer(run(on_host, DeviceChoice::Gpu)));
  CHECK(test::compare_gpu_strategies(having_db(), on_host) > 0);
}

// A string column key beside an aggregate: the Finalizer reads a table by the key's code (NULL
// keys included), and a term whose host evaluation fails fails on both engines.
TEST_CASE("gpu having: string keys beside aggregates in the Finalizer") {
  const char* const queries[] = {
      "SELECT l_returnflag, COUNT(*) FROM lineitem GROUP BY 1 "
      "HAVING l_returnflag <> 'R' OR COUNT(*) < 10 ORDER BY 1",
      "SELECT l_shipmode, l_returnflag, SUM(l_quantity), COUNT(*) FROM lineitem GROUP BY 1, 2 "
      "HAVING (l_shipmode LIKE '%AIR%' OR l_returnflag IN ('A', 'N')) AND SUM(l_quantity) > 10 "
      "ORDER BY 1, 2",
      "SELECT c_varchar, c_smallint, COUNT(*), MAX(c_integer) FROM nulls GROUP BY 1, 2 "
      "HAVING c_varchar IS NULL OR (c_varchar > 'd' AND COUNT(*) > 2) ORDER BY 1, 2",
      "SELECT c_varchar, COUNT(*) FROM nulls GROUP BY 1 "
      "HAVING COALESCE(length(c_varchar), 0) + COUNT(*) > 40 ORDER BY 1"};
  for (const char* sql : queries) {
    INFO(sql);
    CHECK(in_finalizer(run(sql, DeviceChoice::Gpu)));
    CHECK(test::compare_gpu_strategies(having_db(), sql) > 0);
  }
  const char* fails =
      "SELECT c_varchar, COUNT(*) FROM nulls GROUP BY 1 "
      "HAVING CAST(c_varchar AS INTEGER) > 0 OR COUNT(*) > 1";
  CHECK_THROWS_AS(run(fails, DeviceChoice::Gpu), Error);
  CHECK_THROWS_AS(run(fails, DeviceChoice::Cpu), Error);
}

// Conditions on keys alone run as the Scan's filter (compiler/ir/key_conditions.h): string
// and computed keys, beside an aggregate condition the Finalizer keeps.
TEST_CASE("gpu having: conditions on keys alone filter rows in the Scan") {
  const char* const queries[] = {
      "SELECT l_returnflag, l_linestatus, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1, 2 "
      "HAVING l_returnflag <> 'R' AND l_linestatus LIKE 'F%' ORDER BY 1, 2",
      "SELECT c_varchar, c_integer % 5, COUNT(*), AVG(c_decimal) FROM nulls GROUP BY 1, 2 "
      "HAVING c_varchar IS NOT NULL AND c_integer % 5 IN (1, 3) AND COUNT(*) > 10 ORDER BY 1, 2",
      "SELECT upper(c_varchar), COUNT(*) FROM nulls GROUP BY 1 HAVING upper(c_varchar) > 'D' ORDER "
      "BY 1"};
  for (const char* sql : queries) {
    INFO(sql);
    const Run gpu = run(sql, DeviceChoice::Gpu);
    CHECK(gpu.explain.find("filter:") != std::string::npos);
    CHECK(test::compare_gpu_strategies(having_db(), sql) > 0);
  }
}

}  // namespace tally
