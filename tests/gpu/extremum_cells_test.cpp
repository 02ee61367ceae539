// Integer MIN and MAX keep narrow cells in thread and block tables and block caches, where the
// statistics bound their values (compiler/plan/thread_tables.h cell_identity): a cell no row
// reached holds its type's extreme and merges it into the global state. Every strategy must
// give the CPU engine's results, negative values, DATEs, DECIMALs, 64-bit values and groups
// whose arguments are all NULL (MIN's count says NULL) included, in one part or streamed in
// batches whose states combine on the host.
#include <doctest/doctest.h>

#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& extremum_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 17));
    d->put_table(generate_atable(200000, 1u << 20, 1.2, 17));
    d->put_table(generate_nulls_table(50000, 0.2, 17));
    return d;
  }();
  return *db;
}

}  // namespace

TEST_CASE("gpu extremum cells: narrow MIN and MAX cells give the CPU engine's results") {
  const char* const queries[] = {
      // i32 cells for DECIMAL(15,2), DATE and INTEGER values over 7 groups (shared tables).
      "SELECT l_shipmode, COUNT(*), MIN(l_quantity), MAX(l_quantity), MIN(l_shipdate), "
      "MAX(l_shipdate), MIN(l_discount - 0.05), MAX(l_tax), MIN(l_linenumber) FROM lineitem "
      "GROUP BY 1",
      // A group whose arguments are all NULL: the cells keep their extremes, MIN says NULL.
      "SELECT l_linenumber, MIN(CASE WHEN l_linenumber = 3 THEN NULL ELSE l_quantity END), "
      "MAX(CASE WHEN l_linenumber = 3 THEN NULL ELSE -l_extendedprice END), COUNT(*) "
      "FROM lineitem GROUP BY 1",
      // i64 cells: values past 32 bits; a computed key over more groups (block, direct).
      "SELECT col1 % 500, MIN(col1 * 1000000), MAX(col2 - 5000000000), MIN(col4), COUNT(*) "
      "FROM atable GROUP BY 1",
      // NULL arguments and keys.
      "SELECT c_boolean, c_smallint % 3, MIN(c_integer), MAX(c_bigint), MIN(c_date), "
      "MAX(c_decimal), COUNT(*) FROM nulls GROUP BY 1, 2",
      // Without GROUP BY.
      "SELECT MIN(l_quantity), MAX(l_shipdate), MIN(l_orderkey) FROM lineitem"};
  for (const char* sql : queries) CHECK(test::compare_gpu_strategies(extremum_db(), sql) >= 3);
}

TEST_CASE("gpu extremum cells: streamed batches' MIN and MAX states combine on the host") {
  const std::string sql =
      "SELECT l_returnflag, MIN(CASE WHEN l_returnflag = 'A' THEN NULL ELSE l_quantity END), "
      "MAX(l_shipdate), COUNT(*) FROM lineitem GROUP BY 1";
  const Result cpu = test::run_sql(extremum_db(), sql);
  for (const char* strategy : {"thread", "block"}) {
    INFO(strategy);
    ExecOptions options;
    options.strategy = strategy;
    options.placement = "host";
    options.batch_rows = 40000;
    const auto [gpu, explain] = test::run_explained(extremum_db(), sql, options);
    INFO(explain);
    CHECK(gpu.device.rfind("gpu", 0) == 0);
    CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
  }
}

}  // namespace tally
