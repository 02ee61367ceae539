// compiler/plan/device_having.h: which HAVING clauses the GPU's Finalizer evaluates, what
// --explain says, and that the Finalizer it writes compiles (the GPU test
// tests/gpu/device_having_test.cpp runs it against the CPU engine). No GPU needed.
#include "compiler/plan/device_having.h"

#include <doctest/doctest.h>

#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/planner_fixture.h"

namespace tally {
namespace {

Database& having_db() {
  static Database* db = test::make_planner_db("");
  return *db;
}

bool on_device(const std::string& sql) {
  return having_fits_device(test::bind_first(having_db(), sql));
}

TEST_CASE("device having: numbers and times and booleans of keys and aggregates qualify") {
  CHECK(
      on_device("SELECT l_orderkey, SUM(l_quantity) FROM lineitem GROUP BY 1 "
                "HAVING SUM(l_quantity) > 250"));
  CHECK(
      on_device("SELECT c_boolean, c_date, COUNT(*) FROM nulls GROUP BY 1, 2 "
                "HAVING c_boolean OR c_date IS NULL OR COUNT(*) BETWEEN 3 AND 9"));
  CHECK(
      on_device("SELECT c_smallint, MIN(c_real), AVG(c_decimal) FROM nulls GROUP BY 1 "
                "HAVING c_smallint IN (1, 3) AND COALESCE(MIN(c_real), 0) > 0.5 "
                "AND CASE WHEN AVG(c_decimal) > 0 THEN 1 ELSE 0 END = 1"));
  // A string column key's cell is its dictionary code: a term on it is a table by code. (A
  // condition on keys alone moves to WHERE: compiler/ir/key_conditions.h.)
  CHECK(
      on_device("SELECT l_returnflag, COUNT(*) FROM lineitem GROUP BY 1 "
                "HAVING l_returnflag = 'R' OR COUNT(*) > 5"));
  CHECK(
      on_device("SELECT l_shipmode, l_returnflag, SUM(l_quantity) FROM lineitem GROUP BY 1, 2 "
                "HAVING (l_shipmode LIKE '%AIR%' OR l_returnflag IN ('A', 'N')) AND "
                "SUM(l_quantity) > 10"));
  // A computed string key is an id of its domain; VARCHAR results too.
  CHECK(
      !on_device("SELECT upper(c_varchar), COUNT(*) FROM nulls GROUP BY 1 "
                 "HAVING upper(c_varchar) > 'D' OR COUNT(*) > 3"));
  CHECK(
      !on_device("SELECT l_returnflag, COUNT(*) FROM lineitem GROUP BY 1 "
                 "HAVING l_returnflag < MAX(l_shipmode) OR COUNT(*) > 5"));
  CHECK(
      !on_device("SELECT l_linenumber, MAX(l_shipmode) FROM lineitem GROUP BY 1 "
                 "HAVING MAX(l_shipmode) > 'M'"));
  // A DOUBLE key's cell holds the hash table's key bits, not the value.
  CHECK(!on_device("SELECT c_double, COUNT(*) FROM nulls GROUP BY 1 HAVING c_double > 0.5"));
  // Each grouping set has its own GROUPING(): the sets' HAVING stays on the host.
  CHECK(
      !on_device("SELECT c_boolean, c_smallint, COUNT(*) FROM nulls "
                 "GROUP BY ROLLUP (c_boolean, c_smallint) HAVING COUNT(*) > 3"));
  CHECK(!on_device("SELECT c_boolean, COUNT(*) FROM nulls GROUP BY 1"));
}

TEST_CASE("device having: the plan and --explain say so and the Finalizer compiles") {
  const char* sql =
      "SELECT l_orderkey, SUM(l_quantity), AVG(l_extendedprice) FROM lineitem GROUP BY 1 "
      "HAVING SUM(l_quantity) > 250 AND AVG(l_extendedprice) > 100.5 ORDER BY 2 DESC LIMIT 5";
  for (GpuStrategy strategy : {GpuStrategy::Auto, GpuStrategy::Hash, GpuStrategy::Direct}) {
    const test::GeneratedScan g = test::generate_scan(having_db(), sql, strategy);
    CHECK(g.plan.having_on_device());
    CHECK(describe_plan(g.plan).find("HAVING: in the Finalizer") != std::string::npos);
    CHECK(g.source.find("group_values[0]") != std::string::npos);
    // The survivors are the result cells: ORDER BY ... LIMIT picks them on the device.
    CHECK(g.source.find("tally_top_k") != std::string::npos);
    // A table split in parts writes state fields: HAVING waits for the merged groups.
    CHECK(!with_state_cells(g.plan).having_on_device());
    CHECK(!with_streamed_scan(g.plan, true).having_on_device());
    CHECK(with_streamed_scan(g.plan, false).having_on_device());
    if (!cuda::nvrtc_available()) continue;
    const cuda::CompiledKernel binary = cuda::compile_cuda(g.source, "having.cu");
    CHECK(!binary.image.empty());
  }
  // A string key's term reads a table by the key's code in the Finalizer.
  const test::GeneratedScan coded = test::generate_scan(
      having_db(),
      "SELECT l_returnflag, l_linestatus, COUNT(*) FROM lineitem GROUP BY 1, 2 "
      "HAVING l_returnflag <> 'R' OR COUNT(*) < 10",
      GpuStrategy::Auto);
  CHECK(coded.plan.having_on_device());
  CHECK(coded.source.find("? 3ll : (i64)group_keys[0]") != std::string::npos);
  if (cuda::nvrtc_available()) {
    CHECK(!cuda::compile_cuda(coded.source, "having_codes.cu").image.empty());
  }
  const test::GeneratedScan host = test::generate_scan(
      having_db(),
      "SELECT l_returnflag, COUNT(*) FROM lineitem GROUP BY 1 HAVING l_returnflag = 'R'",
      GpuStrategy::Auto);
  CHECK(!host.plan.having_on_device());
  CHECK(describe_plan(host.plan).find("HAVING") == std::string::npos);
  CHECK(host.source.find("group_values") == std::string::npos);
}

}  // namespace
}  // namespace tally
