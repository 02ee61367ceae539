// The host finish of large results on all cores: ORDER BY (a top-k selection or a merge
// sort of chunks) gives what one stable sort gives, group outputs evaluated in parallel
// keep group order and the first group's error, and formatting in chunks spells every row.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "cli/result_format.h"
#include "compiler/eval/evaluator.h"
#include "runtime/result/result_builder.h"
#include "runtime/result/row_sort.h"
#include "support/planner_fixture.h"

using namespace tally;

namespace {

Database& finish_db() {
  static Database* db = test::make_planner_db("CREATE TABLE t (a INTEGER, b INTEGER, c DOUBLE)");
  return *db;
}

// Rows (a, b, c) with many ties in b and some NULLs, in a fixed shuffled order.
std::vector<std::vector<Value>> tied_rows(size_t n) {
  std::mt19937_64 random(7);
  std::vector<std::vector<Value>> rows;
  for (size_t i = 0; i < n; ++i) {
    Value b = random() % 50 == 0 ? Value() : Value::from_int(static_cast<int64_t>(random() % 97));
    rows.push_back({Value::from_int(static_cast<int64_t>(i)), b,
                    Value::from_double(static_cast<double>(random() % 1000) / 8)});
  }
  return rows;
}

// The reference: one std::stable_sort with the ORDER BY of `query` (of row numbers, so
// that the sort moves no rows).
std::vector<std::vector<Value>> stable_sorted(const BoundSelect& query,
                                              const std::vector<std::vector<Value>>& rows) {
  std::vector<size_t> order(rows.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    for (const auto& key : query.order_by) {
      const Value& u = rows[x][key.output];
      const Value& v = rows[y][key.output];
      if (u.null || v.null) {
        if (u.null && v.null) continue;
        return u.null ? key.nulls_first : !key.nulls_first;
      }
      int c = compare_values(u, v, query.outputs[key.output].expr->type, nullptr);
      if (c != 0) return key.descending ? c > 0 : c < 0;
    }
    return false;
  });
  std::vector<std::vector<Value>> sorted;
  sorted.reserve(rows.size());
  for (size_t i : order) sorted.push_back(rows[i]);
  return sorted;
}

bool same_cell(const Value& x, const Value& y) {
  return x.null == y.null && (x.null || x.d == y.d);
}

void expect_same_rows(const std::vector<std::vector<Value>>& got,
                      const std::vector<std::vector<Value>>& want) {
  REQUIRE(got.size() == want.size());
  size_t first_difference = SIZE_MAX;
  for (size_t r = 0; r < got.size() && first_difference == SIZE_MAX; ++r) {
    for (size_t c = 0; c < want[r].size(); ++c) {
      if (!same_cell(got[r][c], want[r][c])) first_difference = r;
    }
  }
  CHECK(first_difference == SIZE_MAX);
}

}  // namespace

TEST_CASE("row sort: top-k and chunked merge sort equal one stable sort with ties and NULLs") {
  for (const char* order : {"b DESC", "b NULLS FIRST", "b, c DESC", "c"}) {
    BoundSelect query =
        test::bind_first(finish_db(), std::string("SELECT a, b, c FROM t ORDER BY ") + order);
    // 300,000 rows: five chunks of 65,536 and a short one.
    const auto rows = tied_rows(300000);
    const auto want = stable_sorted(query, rows);
    for (size_t needed :
         {size_t{0}, size_t{1}, size_t{10}, size_t{1000}, size_t{100000}, SIZE_MAX}) {
      INFO(order << " needed " << needed);
      ResultRows all = output_rows(query);
      for (const auto& row : rows) all.push_back(row);
      const auto order = sorted_rows(query, all, nullptr, needed);
      REQUIRE(order.has_value());
      const auto got = all.gather(*order).to_vectors();
      const size_t keep = std::min(needed, want.size());
      expect_same_rows(got, {want.begin(), want.begin() + static_cast<ptrdiff_t>(keep)});
    }
  }
}

TEST_CASE("row sort: edge sizes with LIMIT and OFFSET equal one stable sort") {
  // 65,536 is one chunk (no merge round), 65,537 two (one round: the chunks are sorted in
  // the scratch buffer) and 131,073 three (two rounds); a round merges its pairs in pieces.
  const char* limits[] = {"", " LIMIT 1000 OFFSET 20", " LIMIT 60000 OFFSET 10"};
  for (size_t n : {size_t{0}, size_t{1}, size_t{65536}, size_t{65537}, size_t{131073}}) {
    const auto rows = tied_rows(n);
    const auto want = stable_sorted(
        test::bind_first(finish_db(), "SELECT a, b, c FROM t ORDER BY b DESC, c"), rows);
    for (const char* limit : limits) {
      const std::string sql = std::string("SELECT a, b, c FROM t ORDER BY b DESC, c") + limit;
      INFO(sql << " over " << n << " rows");
      BoundSelect query = test::bind_first(finish_db(), sql);
      const size_t begin = std::min(static_cast<size_t>(query.offset), want.size());
      const size_t end = query.limit
                             ? std::min(want.size(), begin + static_cast<size_t>(*query.limit))
                             : want.size();
      const Result got = finish_result(query, rows, {}, std::make_shared<StringHeap>());
      expect_same_rows(got.rows.to_vectors(), {want.begin() + static_cast<ptrdiff_t>(begin),
                                               want.begin() + static_cast<ptrdiff_t>(end)});
    }
  }
}

TEST_CASE("group outputs: many groups evaluate in group order and raise the first group's error") {
  BoundSelect query =
      test::bind_first(finish_db(), "SELECT a, SUM(b) FROM t GROUP BY a HAVING SUM(b) % 3 <> 1");
  const size_t groups = 100000;  // several tasks of 16,384 groups
  REQUIRE(query.aggregates.size() == 1);
  std::vector<Value> keys, finals;  // flat, one of each a group
  GroupRows nested;
  for (size_t g = 0; g < groups; ++g) {
    keys.push_back(Value::from_int(static_cast<int64_t>(g)));
    finals.push_back(Value::from_int(static_cast<int64_t>(g * 7 % 1000)));
    nested.keys.push_back({keys.back()});
    nested.aggregates.push_back({finals.back()});
  }
  auto read = [&](size_t g, Value* k, Value* a) {
    k[0] = keys[g];
    a[0] = finals[g];
  };
  auto strings = std::make_shared<StringHeap>();
  const auto flat = evaluate_group_outputs(query, groups, read, {}, strings.get()).to_vectors();
  const auto rows = evaluate_group_outputs(query, nested, {}, strings.get()).to_vectors();
  expect_same_rows(flat, rows);
  size_t expected = 0, previous = 0;
  for (size_t g = 0; g < groups; ++g) expected += (g * 7 % 1000) % 3 != 1;
  CHECK(flat.size() == expected);
  for (size_t r = 1; r < flat.size(); ++r) CHECK(flat[r][0].i > flat[previous++][0].i);

  BoundSelect failing =
      test::bind_first(finish_db(), "SELECT a, 100 / (SUM(b) - 500) FROM t GROUP BY a");
  for (auto& v : finals) v = Value::from_int(1);
  finals[70000] = Value::from_int(500);  // in the fifth task
  finals[90000] = Value::from_int(500);
  CHECK_THROWS_WITH(evaluate_group_outputs(failing, groups, read, {}, strings.get()),
                    doctest::Contains("division by zero"));
}

TEST_CASE("result formats: chunked CSV and table output spell every row in order") {
  Result r;
  r.names = {"n", "s"};
  r.types = {Type::bigint(), Type::varchar()};
  const size_t rows = 40000;  // three formatting chunks
  std::string csv = "n,s\n";
  for (size_t i = 0; i < rows; ++i) {
    const bool null = i % 11 == 0;
    r.rows.push_back({Value::from_int(static_cast<int64_t>(i)),
                      null ? Value() : Value::from_int(r.strings->intern(i % 2 ? "x,y" : "z"))});
    csv += std::to_string(i) + "," + (null ? "" : i % 2 ? "\"x,y\"" : "z") + "\n";
  }
  std::ostringstream out;
  write_result(out, r, OutputFormat::Csv);
  CHECK(out.str() == csv);
  const std::string table = format_result(r, OutputFormat::Table);
  CHECK(table.starts_with("   n   |  s \n-------+-----\n     0 |\n     1 | x,y\n"));
  CHECK(table.ends_with(" 39999 | x,y\n(40000 rows)\n"));
  CHECK(std::count(table.begin(), table.end(), '\n') == static_cast<ptrdiff_t>(rows + 3));
}
TEST_CASE("result formats: a table's number columns are as wide as their widest value") {
  // Per column, the widest cell is the least value (a minus sign), the greatest, or the name;
  // NULLs are blank. Over three formatting chunks, the widest rows in the second.
  Result r;
  r.names = {"i", "d", "wide_decimal_column"};
  r.types = {Type::bigint(), Type::decimal(15, 2), Type::decimal(38, 3)};
  r.rows = ResultRows(r.types);
  const size_t rows = 40000;
  for (size_t i = 0; i < rows; ++i) {
    const auto v = static_cast<int64_t>(i % 100);
    const Value wide =
        Value::from_decimal(i == 20000 ? -int128{123456789012345678} * 1000000 : int128{v} * 1000);
    r.rows.push_back({Value::from_int(i == 20001 ? -1234567 : v),
                      i % 7 == 0 ? Value() : Value::from_decimal(i == 20002 ? 99999999 : v), wide});
  }
  const std::string table = format_result(r, OutputFormat::Table);
  // Widths 8 ("-1234567"), 9 ("999999.99") and 26 ("-123456789012345678000.000").
  const std::string rule =
      "-" + std::string(8, '-') + "-+-" + std::string(9, '-') + "-+-" + std::string(26, '-') + "-";
  CHECK(table.find("\n" + rule + "\n") != std::string::npos);
  auto line = [](const std::string& i, const std::string& d, const std::string& w) {
    return "\n " + std::string(8 - i.size(), ' ') + i + " | " + std::string(9 - d.size(), ' ') + d +
           " | " + std::string(26 - w.size(), ' ') + w + "\n";
  };
  CHECK(table.find(line("-1234567", "0.01", "1.000")) != std::string::npos);
  CHECK(table.find(line("2", "999999.99", "2.000")) != std::string::npos);
  CHECK(table.find(line("0", "0.00", "-123456789012345678000.000")) != std::string::npos);
  // Row 20006 (7 divides it): its d is NULL, blank.
  CHECK(table.find("\n        6 |           |") != std::string::npos);
}
