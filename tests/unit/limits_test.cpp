// Hostile input: expressions nested or chained beyond the limits of
// compiler/parse/depth_limits.h give a syntax error at the right line and column, never a
// stack overflow; expressions within them parse, bind and run, on the CPU engine's worker
// threads too.
#include <doctest/doctest.h>

#include <string>

#include "compiler/parse/depth_limits.h"
#include "compiler/parse/parser.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

std::string repeat(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// `SELECT` and then `levels` parentheses around 1, on the second line of the script.
std::string parenthesised(int levels) {
  return "SELECT 0;\nSELECT " + repeat("(", levels) + "1" + repeat(")", levels);
}

// The error parse_script throws for `sql`; fails the test when it throws none.
Error parse_error(const std::string& sql) {
  try {
    parse_script(sql);
  } catch (const Error& error) {
    return error;
  }
  FAIL("expected an error");
  return Error(ErrorKind::Internal, "unreachable");
}

void check_nesting_error(const std::string& sql, int line, int column) {
  Error error = parse_error(sql);
  CHECK(error.kind() == ErrorKind::Syntax);
  CHECK(std::string(error.what()).find("expression nested too deeply (more than 1000 levels)") !=
        std::string::npos);
  REQUIRE(error.location().has_value());
  CHECK(error.location()->line == line);
  CHECK(error.location()->column == column);
}

TEST_CASE("limits: 1000 levels of parentheses parse and one more is an error inside its paren") {
  CHECK(parse_script(parenthesised(kMaxNestingDepth)).size() == 2);
  // "SELECT " is 7 columns; the 1,001st '(' is column 8 + 1000, its expression 1009.
  check_nesting_error(parenthesised(kMaxNestingDepth + 1), 2, 1009);
  // Far beyond: 5,000 crashed the parser's recursion; 100,000 must not either.
  check_nesting_error(parenthesised(5000), 2, 1009);
  check_nesting_error(parenthesised(100000), 2, 1009);
}

TEST_CASE("limits: deep CASE / CAST / unary minus / NOT chains are errors and not crashes") {
  check_nesting_error("SELECT " + repeat("CASE WHEN TRUE THEN ", 5000) + "1" + repeat(" END", 5000),
                      1, 8 + 1000 * 20 + 10);  // the WHEN condition of CASE 1,001
  check_nesting_error("SELECT " + repeat("CAST(", 5000) + "1" + repeat(" AS INTEGER)", 5000), 1,
                      8 + 1000 * 5 + 5);  // the operand of CAST 1,001
  check_nesting_error("SELECT " + repeat("- ", 50000) + "1", 1, 8 + 1001 * 2);
  check_nesting_error("SELECT " + repeat("NOT ", 50000) + "TRUE", 1, 8 + 1001 * 4);
  // `::` casts chain without nesting the parser, but each is a level of the tree.
  Error casts = parse_error("SELECT 1" + repeat("::INTEGER", 50000));
  CHECK(std::string(casts.what()).find("more than 4000 operators deep") != std::string::npos);
}

TEST_CASE("limits: a syntax error at the deepest allowed level is reported and not a crash") {
  std::string sql =
      "SELECT " + repeat("(", kMaxNestingDepth) + "1 +" + repeat(")", kMaxNestingDepth);
  Error error = parse_error(sql);
  CHECK(error.kind() == ErrorKind::Syntax);
  CHECK(std::string(error.what()).find("nested too deeply") == std::string::npos);
}

// `a + a + ... + a` with `terms` terms.
std::string sum_of(const std::string& term, int terms) {
  std::string sql = term;
  for (int i = 1; i < terms; ++i) sql += " + " + term;
  return sql;
}

TEST_CASE(
    "limits: a 20000-term sum is an error at its start while 3990 terms run on every thread") {
  // Column 12 of line 1: the sum inside SUM( starts there.
  Error error = parse_error("SELECT SUM(" + sum_of("a", 20000) + ") FROM t");
  CHECK(std::string(error.what())
            .find("expression nested too deeply (more than 4000 operators "
                  "deep)") != std::string::npos);
  REQUIRE(error.location().has_value());
  CHECK(error.location()->column == 12);

  // 100,000 rows in many morsels, so worker threads evaluate the deep trees as well.
  Database db;
  test::run_script(db, "CREATE TABLE t (a INTEGER, k INTEGER)");
  std::string rows = "INSERT INTO t VALUES (1, 0)";
  for (int i = 1; i < 1000; ++i) rows += ", (1, " + std::to_string(i % 2) + ")";
  for (int copy = 0; copy < 100; ++copy) test::run_script(db, rows);
  std::string deep = sum_of("a", 3990);
  Result result = test::run_sql(
      db, "SELECT k, SUM(" + deep + ") FROM t WHERE " + deep + " > 0 GROUP BY k ORDER BY k");
  // Each row's sum is 3,990; each k holds 50,000 rows.
  test::expect_rows(result, {{test::int_cell(0), test::int_cell(3990LL * 50000)},
                             {test::int_cell(1), test::int_cell(3990LL * 50000)}});
}

}  // namespace
}  // namespace tally
