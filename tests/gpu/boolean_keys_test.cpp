// GROUP BY over BOOLEAN expressions (comparisons, IS NULL, AND/OR, a comparison of two string
// columns) on the GPU against the CPU engine under every strategy: such a key is a digit of
// two values and a NULL one (compiler/plan/value_bounds.h), so thread, block and direct
// tables take it where they once hashed it.
#include <doctest/doctest.h>

#include <string>

#include "runtime/session/database.h"
#include "tests/gpu/strategy_compare.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& boolean_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(60000, 0.2, 17));
    d->put_table(generate_lineitem(0.05, 17));
    return d;
  }();
  return *db;
}

int compare_strategies(const std::string& sql) {
  return test::compare_gpu_strategies(boolean_db(), sql);
}

}  // namespace

TEST_CASE("gpu boolean keys: comparisons and NULL tests as keys match the CPU engine") {
  // auto and the thread, block and direct tables: the key is bounded.
  CHECK(compare_strategies("SELECT c_integer > 0, c_varchar IS NULL, COUNT(*), SUM(c_decimal), "
                           "MIN(c_date) FROM nulls GROUP BY 1, 2 ORDER BY ALL") >= 4);
  CHECK(compare_strategies("SELECT c_double < c_real OR c_boolean, COUNT(*), SUM(c_bigint) "
                           "FROM nulls GROUP BY 1 ORDER BY ALL") >= 4);
  CHECK(compare_strategies("SELECT l_quantity > 25, l_shipmode < l_shipinstruct, "
                           "l_returnflag = 'R' AND l_discount < 0.05, COUNT(*), "
                           "SUM(l_extendedprice) FROM lineitem GROUP BY 1, 2, 3 ORDER BY ALL") >=
        4);
}

}  // namespace tally
