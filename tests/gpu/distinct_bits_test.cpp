// COUNT(DISTINCT x) over at most 64 values keeps them as one word's bits, merged by OR and
// counted in the Finalizer (StateKind::CountDistinctBits), instead of the DISTINCT set. Every
// strategy must give the CPU engine's counts: dictionary codes, small integer, DATE-derived
// and DECIMAL domains, NULL arguments, filters, a set-kept DISTINCT beside them, without
// GROUP BY, and over streamed batches.
#include <doctest/doctest.h>

#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& bits_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 29));
    d->put_table(generate_nulls_table(40000, 0.2, 29));
    return d;
  }();
  return *db;
}

}  // namespace

TEST_CASE("gpu distinct bits: COUNT(DISTINCT) over small domains gives the CPU engine's counts") {
  const char* const queries[] = {
      "SELECT l_linestatus, COUNT(DISTINCT l_suppkey), COUNT(DISTINCT l_shipmode), COUNT(*) "
      "FROM lineitem GROUP BY 1",
      "SELECT COUNT(DISTINCT l_shipmode), COUNT(DISTINCT l_linenumber), COUNT(*) FROM lineitem",
      "SELECT l_returnflag, COUNT(DISTINCT EXTRACT(MONTH FROM l_shipdate)), COUNT(DISTINCT "
      "l_discount), COUNT(DISTINCT l_shipinstruct) FROM lineitem WHERE l_quantity < 20 GROUP BY 1",
      "SELECT l_shipdate, COUNT(DISTINCT l_shipmode), SUM(l_quantity) FROM lineitem GROUP BY 1",
      "SELECT c_varchar, COUNT(DISTINCT c_boolean), COUNT(DISTINCT c_smallint % 30), COUNT(*) "
      "FROM nulls GROUP BY 1",
  };
  for (const char* sql : queries) CHECK(test::compare_gpu_strategies(bits_db(), sql) >= 3);
  // --explain says which aggregates keep bits.
  const auto [gpu, explain] = test::run_explained(bits_db(), queries[0], "auto");
  INFO(explain);
  CHECK(explain.find("agg1: the values seen as one word's bits") != std::string::npos);
  CHECK(explain.find("agg0: the values seen as bits of a bitmap") != std::string::npos);
}

TEST_CASE("gpu distinct bits: streamed batches keep one bit set a group") {
  const std::string sql =
      "SELECT l_returnflag, COUNT(DISTINCT l_shipmode), COUNT(DISTINCT l_linenumber) FROM "
      "lineitem GROUP BY 1";
  test::check_streamed(bits_db(), sql, 30000);
}

}  // namespace tally
