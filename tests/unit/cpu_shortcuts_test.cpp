// The CPU engine's shortcuts (runtime/cpu/cpu_engine.cpp) give what the full scan gives: a
// LIMIT that stops the scan returns exactly the rows of input order (checked against
// slices of the whole result, across morsel boundaries of 16,384 rows, with filters and
// parameters), and COUNT(*) alone counts rows without reading them.
#include <doctest/doctest.h>

#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& limit_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_atable(100000, 1u << 20, 0, 3));
    return d;
  }();
  return *db;
}

std::vector<int64_t> column(const Result& r) {
  std::vector<int64_t> values;
  for (const auto& row : r.rows) values.push_back(row[0].i);
  return values;
}

std::vector<int64_t> slice(const std::vector<int64_t>& all, size_t offset, size_t limit) {
  const size_t begin = std::min(offset, all.size());
  const size_t end = std::min(all.size(), begin + limit);
  return {all.begin() + static_cast<std::ptrdiff_t>(begin),
          all.begin() + static_cast<std::ptrdiff_t>(end)};
}

}  // namespace

TEST_CASE("cpu limit: an early stop returns the rows of input order") {
  const auto all = column(test::run_sql(limit_db(), "SELECT col1 FROM atable"));
  REQUIRE(all.size() == 100000);
  for (auto [offset, limit] : {std::pair<size_t, size_t>{0, 3},
                               {16380, 10},
                               {32767, 2},
                               {99995, 10},
                               {0, 0},
                               {200000, 5}}) {
    INFO("OFFSET " << offset << " LIMIT " << limit);
    const auto got =
        column(test::run_sql(limit_db(), "SELECT col1 FROM atable LIMIT " + std::to_string(limit) +
                                             " OFFSET " + std::to_string(offset)));
    CHECK(got == slice(all, offset, limit));
  }
  const auto odd = column(test::run_sql(limit_db(), "SELECT col1 FROM atable WHERE col1 % 2 = 1"));
  CHECK(column(test::run_sql(limit_db(),
                             "SELECT col1 FROM atable WHERE col1 % 2 = 1 LIMIT 20 OFFSET 8190")) ==
        slice(odd, 8190, 20));
  CHECK(column(test::run_sql(limit_db(), "SELECT col1 FROM atable LIMIT ? OFFSET ?",
                             {"4", "16383"})) == slice(all, 16383, 4));
}

TEST_CASE("cpu count: COUNT(*) alone is the row count - as the full scan counts it") {
  const Result counted =
      test::run_sql(limit_db(), "SELECT COUNT(*), COUNT(*) AS again FROM atable");
  // A filter that every row passes takes the row-by-row path.
  const Result scanned = test::run_sql(limit_db(), "SELECT COUNT(*) FROM atable WHERE col1 >= 0");
  CHECK(counted.rows[0][0].i == 100000);
  CHECK(counted.rows[0][1].i == 100000);
  CHECK(scanned.rows[0][0].i == 100000);
  Database empty;
  test::run_script(empty, "CREATE TABLE e (a INTEGER)");
  CHECK(test::run_sql(empty, "SELECT COUNT(*) FROM e").rows[0][0].i == 0);
}

}  // namespace tally
