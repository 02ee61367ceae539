// Prepared SELECTs through Database::prepare / execute_prepared: one bind, many parameter
// values, each result equal to the same query written with the value as a literal.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

using test::run_script;
using test::run_sql;

Result run_prepared(Database& db, const PreparedSelect& statement,
                    std::vector<std::string> parameters) {
  ExecOptions options;
  options.device = DeviceChoice::Cpu;
  options.parameters = std::move(parameters);
  StatementOutcome outcome = db.execute_prepared(statement, options);
  REQUIRE(outcome.result.has_value());
  return *outcome.result;
}

std::vector<std::string> texts(const Result& r) {
  std::vector<std::string> out;
  for (size_t row = 0; row < r.rows.size(); ++row) {
    for (size_t col = 0; col < r.names.size(); ++col) out.push_back(r.cell_text(row, col));
  }
  return out;
}

TEST_CASE("a prepared SELECT runs with each parameter value like the literal query") {
  Database db;
  run_script(db,
             "CREATE TABLE t (k INTEGER, v DECIMAL(10,2));"
             "INSERT INTO t VALUES (1, 1.50), (2, 2.25), (1, 3.00), (3, NULL), (2, 0.75);");
  auto statement =
      db.prepare("SELECT k, SUM(v), COUNT(*) FROM t WHERE k >= ? GROUP BY k ORDER BY k");
  REQUIRE(statement->parameter_types().size() == 1);
  for (int bound : {0, 2, 3, 4}) {
    std::string literal = std::to_string(bound);
    Result expected = run_sql(
        db, "SELECT k, SUM(v), COUNT(*) FROM t WHERE k >= " + literal + " GROUP BY k ORDER BY k");
    CHECK(texts(run_prepared(db, *statement, {literal})) == texts(expected));
  }
}

TEST_CASE("a prepared SELECT rebinds when its table is replaced by one of another shape") {
  Database db;
  run_script(db, "CREATE TABLE t (a INTEGER, b INTEGER); INSERT INTO t VALUES (1, 10), (2, 20);");
  auto statement = db.prepare("SELECT SUM(b) FROM t WHERE a > ?");
  run_script(db,
             "DROP TABLE t; CREATE TABLE t (z VARCHAR, b INTEGER, a INTEGER);"
             "INSERT INTO t VALUES ('x', 5, 1), ('y', 7, 2), ('z', 11, 3);");
  // 7 + 11: b of the rows whose a > 1, read from the new column positions.
  CHECK(texts(run_prepared(db, *statement, {"1"})) == std::vector<std::string>{"18"});
}

TEST_CASE("prepare rejects what is not one SELECT - and execute reports a dropped table") {
  Database db;
  run_script(db, "CREATE TABLE t (a INTEGER);");
  CHECK_THROWS_WITH_AS(db.prepare("SELECT 1; SELECT 2"), doctest::Contains("exactly one SELECT"),
                       Error);
  CHECK_THROWS_WITH_AS(db.prepare("DROP TABLE t"), doctest::Contains("only a SELECT"), Error);
  CHECK_THROWS_AS(db.prepare("SELECT nope FROM t"), Error);
  auto statement = db.prepare("SELECT COUNT(*) FROM t");
  run_script(db, "DROP TABLE t");
  ExecOptions options;
  options.device = DeviceChoice::Cpu;
  CHECK_THROWS_WITH_AS(db.execute_prepared(*statement, options),
                       doctest::Contains("does not exist"), Error);
}

}  // namespace
}  // namespace tally
