// COUNT/SUM/AVG(DISTINCT x) whose argument has a domain bounded by the statistics (integer,
// DATE, DECIMAL, dictionary codes) keep the values seen as bits of one global bitmap, bit
// slot * values + (x - base), set by atomicOr, instead of the DISTINCT set, in plans other than
// Hash. A row must reach its group's state only the first time its value is seen: every
// strategy, streamed batches and a sliced Block plan must give the CPU engine's results.
#include <doctest/doctest.h>

#include "tests/gpu/strategy_compare.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/text_check.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& bitmap_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 31));
    d->put_table(generate_nulls_table(40000, 0.2, 31));
    return d;
  }();
  return *db;
}

}  // namespace

TEST_CASE("gpu distinct bitmap: every strategy gives the CPU engine's results") {
  const char* const queries[] = {
      "SELECT l_linestatus, COUNT(DISTINCT l_suppkey), SUM(DISTINCT l_quantity), "
      "AVG(DISTINCT l_partkey), COUNT(*) FROM lineitem GROUP BY 1",
      "SELECT l_returnflag, l_linestatus, COUNT(DISTINCT l_suppkey), SUM(DISTINCT l_quantity), "
      "AVG(DISTINCT l_partkey) FROM lineitem GROUP BY 1, 2",
      // Without GROUP BY; l_extendedprice spans millions of cents.
      "SELECT COUNT(DISTINCT l_suppkey), SUM(DISTINCT l_extendedprice), COUNT(*) FROM lineitem",
      "SELECT l_returnflag, COUNT(DISTINCT l_partkey), SUM(DISTINCT l_suppkey), AVG(DISTINCT "
      "l_quantity) FROM lineitem WHERE l_discount > 0.05 AND l_shipmode <> 'MAIL' GROUP BY 1",
      // NULL arguments and a NULL key; negative bases (c_smallint * 100, c_decimal); c_bigint's
      // domain is too wide for a bitmap and keeps the set.
      "SELECT c_boolean, COUNT(DISTINCT c_integer), SUM(DISTINCT c_integer), SUM(DISTINCT "
      "c_smallint * 100), AVG(DISTINCT c_decimal), SUM(DISTINCT c_bigint), COUNT(*) FROM nulls "
      "GROUP BY 1",
      // A VARCHAR of up to 4096 dictionary codes.
      "SELECT l_returnflag, COUNT(DISTINCT l_comment), COUNT(DISTINCT l_partkey % 1000) FROM "
      "lineitem GROUP BY 1",
      // DATE and DECIMAL domains.
      "SELECT l_returnflag, COUNT(DISTINCT l_shipdate), COUNT(DISTINCT l_receiptdate), "
      "COUNT(DISTINCT l_extendedprice) FROM lineitem GROUP BY 1",
  };
  for (const char* sql : queries) CHECK(test::compare_gpu_strategies(bitmap_db(), sql) >= 2);
}

// DOUBLE arguments have no bounded domain: they keep the set beside a bitmap.
TEST_CASE("gpu distinct bitmap: a DOUBLE DISTINCT keeps the set beside a bitmap") {
  const std::string sql =
      "SELECT l_linestatus, COUNT(DISTINCT l_suppkey), COUNT(DISTINCT CAST(l_discount AS "
      "DOUBLE)), SUM(DISTINCT CAST(l_quantity AS DOUBLE)) FROM lineitem GROUP BY 1";
  CHECK(test::compare_gpu_strategies(bitmap_db(), sql) >= 2);
  const Result cpu = test::run_sql(bitmap_db(), sql);
  const auto [gpu, explain] = test::run_explained(bitmap_db(), sql, "auto");
  INFO(explain);
  CHECK(contains(explain, "agg0: the values seen as bits of a bitmap"));
  CHECK_FALSE(contains(explain, "agg1: the values seen as bits of a bitmap"));
  CHECK_FALSE(contains(explain, "agg2: the values seen as bits of a bitmap"));
  CHECK(contains(explain, "DISTINCT set:"));
  CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
}

TEST_CASE("gpu distinct bitmap: explain names the bitmap and hash plans keep the set") {
  const std::string sql =
      "SELECT l_linestatus, COUNT(DISTINCT l_suppkey), COUNT(*) FROM lineitem GROUP BY 1";
  const Result cpu = test::run_sql(bitmap_db(), sql);
  for (const char* strategy : {"auto", "hash"}) {
    const auto [gpu, explain] = test::run_explained(bitmap_db(), sql, strategy);
    INFO(strategy, "\n", explain);
    const bool hash = std::string(strategy) == "hash";
    CHECK(contains(explain, "agg0: the values seen as bits of a bitmap") == !hash);
    CHECK(contains(explain, "DISTINCT set:") == hash);
    CHECK(gpu.device.rfind("gpu", 0) == 0);
    CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
  }
}

// The bitmap lives across batches: a value an earlier batch saw must not count again.
TEST_CASE("gpu distinct bitmap: streamed batches count each value once") {
  const std::string sql =
      "SELECT l_returnflag, COUNT(DISTINCT l_suppkey), SUM(DISTINCT l_quantity), "
      "COUNT(DISTINCT l_comment), AVG(DISTINCT l_partkey) FROM lineitem GROUP BY 1";
  const std::string explain = test::check_streamed(bitmap_db(), sql, 30000);
  INFO(explain);
  CHECK(contains(explain, "agg0: the values seen as bits of a bitmap"));
}

// A Block plan over 70,000 slots runs one Scan pass a slice of its slots: a row sets its bit
// only in its slice's pass, and its group's state must count it once.
TEST_CASE("gpu distinct bitmap: a sliced Block plan gives the CPU engine's results") {
  const std::string sql =
      "SELECT l_orderkey % 70000 AS g, COUNT(DISTINCT l_partkey % 400), SUM(DISTINCT l_suppkey "
      "% 300), SUM(DISTINCT l_quantity), COUNT(*) FROM lineitem GROUP BY 1";
  const Result cpu = test::run_sql(bitmap_db(), sql);
  const auto [gpu, explain] = test::run_forced_block(bitmap_db(), sql);
  INFO(explain);
  CHECK(contains(explain, " slices of "));
  CHECK(contains(explain, "agg0: the values seen as bits of a bitmap"));
  CHECK(contains(explain, "agg1: the values seen as bits of a bitmap"));
  CHECK(gpu.device.rfind("gpu", 0) == 0);
  CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
}

}  // namespace tally
