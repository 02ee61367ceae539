// The partial-state API: parts of a table run to states, travel as bytes, merge, and
// finalize to what one run over the whole table gives.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tally/tally.h"

namespace tally {
namespace {

const char* kQuery =
    "SELECT k, COUNT(*) AS n, SUM(d) AS s, AVG(d) AS a, COUNT(DISTINCT v) AS dv, "
    "VARIANCE(v) AS var, MIN(name) AS lo, MAX(name) AS hi FROM t GROUP BY k "
    "HAVING COUNT(*) > 0 ORDER BY k";

std::string rows_sql(int first, int count) {
  std::string sql = "INSERT INTO t VALUES ";
  for (int i = first; i < first + count; ++i) {
    if (i > first) sql += ", ";
    sql += "(" + std::to_string(i % 4) + ", " + std::to_string(i * 7 % 100) + "." +
           std::to_string(i % 10) + "5, " + std::to_string(i % 13) + ", 'n" +
           std::to_string(i * 31 % 17) + "')";
  }
  return sql;
}

const char* kCreate = "CREATE TABLE t (k INTEGER, d DECIMAL(10,2), v BIGINT, name VARCHAR(4));";

std::vector<std::string> texts(const ResultSet& r) {
  std::vector<std::string> out;
  for (size_t row = 0; row < r.row_count(); ++row) {
    for (size_t c = 0; c < r.column_count(); ++c) out.push_back(r.get_text(row, c));
  }
  return out;
}

TEST_CASE("api partial: three parts merged equal one run over all rows") {
  std::vector<std::string> parts;
  for (int p = 0; p < 3; ++p) {
    Engine engine(EngineOptions{Device::Cpu});
    engine.execute(std::string(kCreate) + rows_sql(p * 50, 50));
    parts.push_back(engine.execute_partial(kQuery).serialize());
  }
  PartialResult merged = PartialResult::deserialize(parts[0]);
  for (size_t p = 1; p < parts.size(); ++p) {
    PartialResult next = PartialResult::deserialize(parts[p]);
    merged.merge(next);
    CHECK(next.group_count() == 0);
  }
  CHECK(merged.group_count() == 4);
  Engine whole(EngineOptions{Device::Cpu});
  whole.execute(std::string(kCreate) + rows_sql(0, 150));
  ResultSet expected = whole.execute(kQuery);
  ResultSet finished = PartialResult::deserialize(merged.serialize()).finalize();
  CHECK(texts(finished) == texts(expected));
  CHECK(finished.column(2).type_name == expected.column(2).type_name);
  CHECK(texts(merged.finalize()) == texts(expected));  // finalize leaves the states as they were
}

TEST_CASE("api partial: an ungrouped query over no rows still has its row") {
  Engine engine(EngineOptions{Device::Cpu});
  engine.execute(kCreate);
  PartialResult a = engine.execute_partial("SELECT COUNT(*) AS n, SUM(v) AS s FROM t");
  PartialResult b = PartialResult::deserialize(a.serialize());
  a.merge(b);
  ResultSet r = a.finalize();
  REQUIRE(r.row_count() == 1);
  CHECK(r.get_int64(0, 0) == 0);
  CHECK(r.is_null(0, 1));
}

TEST_CASE("api partial: other statements and bad bytes are refused") {
  Engine engine(EngineOptions{Device::Cpu});
  engine.execute(std::string(kCreate) + rows_sql(0, 5));
  PartialResult sum = engine.execute_partial("SELECT SUM(v) FROM t");
  PartialResult count = engine.execute_partial("SELECT COUNT(v) FROM t");
  CHECK_THROWS_AS(sum.merge(count), Error);
  CHECK_THROWS_AS(PartialResult::deserialize("TALLY"), Error);
  std::string bytes = sum.serialize();
  CHECK_THROWS_AS(PartialResult::deserialize(bytes.substr(0, bytes.size() - 3)), Error);
  CHECK_THROWS_AS(engine.execute_partial("SELECT v FROM t"), Error);
  CHECK_THROWS_AS(engine.execute_partial("SELECT SUM(v) FROM t WHERE v > ?"), Error);
}

}  // namespace
}  // namespace tally
