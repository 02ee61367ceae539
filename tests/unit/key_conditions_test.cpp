// compiler/ir/key_conditions.h: HAVING conditions on group keys alone move to WHERE, and the
// rest stay; the results are what HAVING gives (the CPU engine, no GPU needed).
#include "compiler/ir/key_conditions.h"

#include <doctest/doctest.h>

#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

Database& conditions_db() {
  static Database* db = test::make_planner_db("");
  return *db;
}

BoundSelect bound(const std::string& sql) { return test::bind_first(conditions_db(), sql); }

std::string text(const ExprPtr& e) { return e ? expr_to_string(*e) : "none"; }

}  // namespace

TEST_CASE("key conditions: leading HAVING terms on keys alone move to WHERE and the rest stay") {
  const BoundSelect q = bound(
      "SELECT c_varchar, c_integer % 5, COUNT(*) FROM nulls WHERE c_smallint > 0 "
      "GROUP BY 1, 2 HAVING c_varchar LIKE 'a%' AND c_integer % 5 <> 2 AND COUNT(*) > 3 "
      "AND c_integer % 5 <> 4");
  REQUIRE(q.filter);
  REQUIRE(q.having);
  const std::string where = text(q.filter);
  CHECK(where.find("LIKE 'a%'") != std::string::npos);
  CHECK(where.find("% 5) <> 2") != std::string::npos);
  CHECK(where.find("> 0") != std::string::npos);  // the statement's own WHERE stays
  // From the aggregate's term on, the HAVING keeps every term, keys or not.
  CHECK(text(q.having) == "((agg0 > 3) AND (key1 <> 4))");
  // Every term on keys: no HAVING left.
  CHECK_FALSE(
      bound("SELECT c_varchar, COUNT(*) FROM nulls GROUP BY 1 HAVING c_varchar = 'x'").having);
}

TEST_CASE("key conditions: what stays in HAVING") {
  // A term that reads an aggregate too, a DOUBLE key (-0.0 and 0.0 are one group), a
  // constant alone (no key), and any HAVING of grouping sets.
  for (const char* sql :
       {"SELECT c_varchar, COUNT(*) FROM nulls GROUP BY 1 HAVING c_varchar = 'x' OR COUNT(*) > 2",
        "SELECT c_double, COUNT(*) FROM nulls GROUP BY 1 HAVING c_double > 0",
        "SELECT c_varchar, COUNT(*) FROM nulls GROUP BY 1 HAVING ? > 1",
        "SELECT c_varchar, c_boolean, COUNT(*) FROM nulls GROUP BY ROLLUP (1, 2) "
        "HAVING c_varchar = 'x'",
        "SELECT COUNT(*) FROM nulls HAVING COUNT(*) > 2"}) {
    INFO(sql);
    const BoundSelect q = bound(sql);
    CHECK(q.having);
    CHECK_FALSE(q.filter);
  }
}

TEST_CASE("key conditions: the groups and aggregates are HAVING's") {
  Database db;
  test::run_script(db,
                   "CREATE TABLE t (g VARCHAR(5), k INTEGER, x INTEGER);"
                   "INSERT INTO t VALUES ('a', 1, 10), ('b', 2, 20), ('a', 3, 30), ('c', 1, 5),"
                   " (NULL, 2, 7), ('a', 1, 1)");
  // (a,1) 11, (a,3) 30 pass; (b,2) fails g <> 'b'; (c,1) fails SUM > 6; NULL's g <> 'b' is
  // NULL, so its group goes too.
  test::expect_rows(
      test::run_sql(db,
                    "SELECT g, k, SUM(x), COUNT(*) FROM t GROUP BY g, k "
                    "HAVING g <> 'b' AND SUM(x) > 6 AND k + 1 > 1 ORDER BY 1, 2"),
      {{test::text_cell("a"), test::int_cell(1), test::int_cell(11), test::int_cell(2)},
       {test::text_cell("a"), test::int_cell(3), test::int_cell(30), test::int_cell(1)}});
  test::expect_rows(
      test::run_sql(db, "SELECT g, SUM(x) FROM t GROUP BY g HAVING g IS NULL OR g > 'b'"),
      {{test::null_cell(), test::int_cell(7)}, {test::text_cell("c"), test::int_cell(5)}});
  // HAVING's AND is lazy: k - 2 is 0 only in the group (b, 2), whose SUM(x) > 25 is false, so
  // 60 / (k - 2) is never evaluated there. As a filter it would divide by zero.
  test::expect_rows(test::run_sql(db,
                                  "SELECT g, k FROM t GROUP BY g, k "
                                  "HAVING SUM(x) > 25 AND 60 / (k - 2) > 0 ORDER BY 1, 2"),
                    {{test::text_cell("a"), test::int_cell(3)}});
}

}  // namespace tally
