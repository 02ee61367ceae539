// End-to-end tests of every query in queries/: each runs through tally::Database on
// generated data, and every cell is compared with a result computed here by a plain loop
// over the table's columns (std::map for groups, 128-bit integers for DECIMAL, the test's
// own rounding and calendar).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

using test::Cell;
using test::date_cell;
using test::days_since_epoch;
using test::decimal_cell;
using test::divide_half_away;
using test::double_cell;
using test::expect_rows;
using test::int_cell;
using test::power_of_ten;
using test::query_file;
using test::Rows;
using test::run_sql;
using test::text_cell;
using test::year_month_of;
using int128 = __int128;

// The lineitem columns the queries read. Money columns are DECIMAL(15,2): get_int is the
// value in cents.
struct Lineitem {
  explicit Lineitem(TablePtr t) : table(std::move(t)) {
    for (const auto& c : table->columns) REQUIRE(c->null_count() == 0);
  }
  const Column& col(const char* name) const {
    int index = table->schema.find_column(name);
    REQUIRE(index >= 0);
    return *table->columns[static_cast<size_t>(index)];
  }
  size_t rows() const { return table->rows(); }

  TablePtr table;
  const Column& orderkey = col("l_orderkey");
  const Column& suppkey = col("l_suppkey");
  const Column& linenumber = col("l_linenumber");
  const Column& quantity = col("l_quantity");
  const Column& extendedprice = col("l_extendedprice");
  const Column& discount = col("l_discount");
  const Column& tax = col("l_tax");
  const Column& returnflag = col("l_returnflag");
  const Column& linestatus = col("l_linestatus");
  const Column& shipdate = col("l_shipdate");
  const Column& receiptdate = col("l_receiptdate");
  const Column& shipinstruct = col("l_shipinstruct");
  const Column& shipmode = col("l_shipmode");
  const Column& comment = col("l_comment");
};

std::string text_at(const Column& c, size_t row) {
  return c.dictionary().at(static_cast<size_t>(c.get_int(row)));
}

int32_t date_at(const Column& c, size_t row) { return static_cast<int32_t>(c.get_int(row)); }

// SF 0.01: about 60,000 rows, generated once for the whole suite.
const Lineitem& lineitem() {
  static const Lineitem data(generate_lineitem(0.01));
  return data;
}

Result run_query(const std::string& name, TablePtr table,
                 std::vector<std::string> parameters = {}) {
  Database db;
  db.put_table(std::move(table));
  return run_sql(db, query_file(name), std::move(parameters));
}

Result run_on_lineitem(const std::string& name, std::vector<std::string> parameters = {}) {
  return run_query(name, lineitem().table, std::move(parameters));
}

// Running sums of one group: count, and exact sums of unscaled values.
struct Sums {
  int64_t n = 0;
  int128 a = 0, b = 0, c = 0, d = 0, e = 0;
};

// AVG of a DECIMAL(p,2) column: DECIMAL(38,6), sum/n rounded half away from zero.
Cell avg_of_cents(int128 sum_cents, int64_t n) {
  return decimal_cell(divide_half_away(sum_cents * power_of_ten(4), n), 6);
}

// ---- TPC-H Q1 ----

Rows expected_q1(const Lineitem& li) {
  // date '1998-12-01' - interval '90' day
  const int32_t cutoff = days_since_epoch(1998, 12, 1) - 90;
  std::map<std::pair<std::string, std::string>, Sums> groups;
  for (size_t r = 0; r < li.rows(); ++r) {
    if (date_at(li.shipdate, r) > cutoff) continue;
    Sums& g = groups[{text_at(li.returnflag, r), text_at(li.linestatus, r)}];
    int128 qty = li.quantity.get_int(r), price = li.extendedprice.get_int(r);
    int128 disc = li.discount.get_int(r), tax = li.tax.get_int(r);
    ++g.n;
    g.a += qty;
    g.b += price;
    g.c += price * (100 - disc);                // scale 2 + 2
    g.d += price * (100 - disc) * (100 + tax);  // scale 2 + 2 + 2
    g.e += disc;
  }
  Rows rows;
  for (const auto& [key, g] : groups) {
    rows.push_back({text_cell(key.first), text_cell(key.second), decimal_cell(g.a, 2),
                    decimal_cell(g.b, 2), decimal_cell(g.c, 4), decimal_cell(g.d, 6),
                    avg_of_cents(g.a, g.n), avg_of_cents(g.b, g.n), avg_of_cents(g.e, g.n),
                    int_cell(g.n)});
  }
  return rows;
}

TEST_CASE("queries: tpch_q1 matches a row-at-a-time computation") {
  Result r = run_on_lineitem("tpch_q1");
  Rows expected = expected_q1(lineitem());
  CHECK(expected.size() == 4);  // (A,F) (N,F) (N,O) (R,F)
  expect_rows(r, expected);
}

TEST_CASE("queries: tpch_q1 is deterministic across two fresh generations of the data") {
  Result first = run_query("tpch_q1", generate_lineitem(0.01));
  Result second = run_query("tpch_q1", generate_lineitem(0.01));
  REQUIRE(first.rows.size() == second.rows.size());
  REQUIRE(first.names == second.names);
  for (size_t i = 0; i < first.rows.size(); ++i) {
    for (size_t c = 0; c < first.names.size(); ++c) {
      CHECK(first.cell_text(i, c) == second.cell_text(i, c));
    }
  }
}

// ---- the seed papers' queries ----

TEST_CASE("queries: query_a (1 - AVG of a REAL expression per zip) matches a direct loop") {
  TablePtr orders = generate_orders_table(20000, 1000, 7);
  const Column& zip = *orders->columns[0];
  const Column& charged = *orders->columns[1];
  const Column& tax = *orders->columns[2];
  const Column& total = *orders->columns[3];
  std::map<int64_t, std::pair<long double, int64_t>> groups;
  for (size_t r = 0; r < orders->rows(); ++r) {
    // REAL operands make the arithmetic DOUBLE.
    double ratio = (charged.get_double(r) - tax.get_double(r)) / total.get_double(r);
    auto& g = groups[zip.get_int(r)];
    g.first += ratio;
    ++g.second;
  }
  Rows expected;
  for (const auto& [key, g] : groups) {
    expected.push_back({int_cell(key), double_cell(1 - g.first / g.second)});
  }
  CHECK(expected.size() == 1000);
  expect_rows(run_query("query_a", orders), expected);
}

TEST_CASE("queries: query_b (MOD(col1 - ?) buckets) matches a direct loop") {
  TablePtr atable = generate_atable(50000, 1u << 20, 0, 3);
  const Column& col1 = *atable->columns[0];
  std::map<int64_t, int64_t> buckets;
  for (size_t r = 0; r < atable->rows(); ++r) ++buckets[col1.get_int(r) % 1000];
  Rows expected;
  for (const auto& [bucket, n] : buckets) expected.push_back({int_cell(bucket), int_cell(n)});
  CHECK(expected.size() == 1000);
  expect_rows(run_query("query_b", atable, {"1000"}), expected);
}

// ---- simple groupings ----

TEST_CASE("queries: returnflag_count matches a direct loop") {
  const Lineitem& li = lineitem();
  std::map<std::string, int64_t> counts;
  for (size_t r = 0; r < li.rows(); ++r) ++counts[text_at(li.returnflag, r)];
  Rows expected;
  for (const auto& [flag, n] : counts) expected.push_back({text_cell(flag), int_cell(n)});
  CHECK(expected.size() == 3);  // A, N, R
  expect_rows(run_on_lineitem("returnflag_count"), expected);
}

TEST_CASE("queries: returnflag_count row counts sum to the table size") {
  Result r = run_on_lineitem("returnflag_count");
  int64_t total = 0;
  for (const auto& row : r.rows) total += row[1].i;
  CHECK(total == static_cast<int64_t>(lineitem().rows()));
}

TEST_CASE("queries: tpch_q6 matches a direct loop") {
  const Lineitem& li = lineitem();
  const int32_t from = days_since_epoch(1994, 1, 1), to = days_since_epoch(1995, 1, 1);
  int128 revenue = 0;  // scale 2 + 2
  int64_t matched = 0;
  for (size_t r = 0; r < li.rows(); ++r) {
    int32_t ship = date_at(li.shipdate, r);
    int64_t disc = li.discount.get_int(r);
    if (ship < from || ship >= to) continue;
    if (disc < 5 || disc > 7) continue;            // 0.05 .. 0.07
    if (li.quantity.get_int(r) >= 2400) continue;  // l_quantity < 24
    revenue += int128{li.extendedprice.get_int(r)} * disc;
    ++matched;
  }
  CHECK(matched > 100);
  expect_rows(run_on_lineitem("tpch_q6"), {{decimal_cell(revenue, 4)}});
}

TEST_CASE("queries: shipmode_stats (MIN/MAX/AVG/STDDEV_SAMP/VAR_SAMP) matches a direct loop") {
  const Lineitem& li = lineitem();
  struct Stats {
    Sums sums;  // a: qty, b: qty^2, c: price, d: disc, e: disc^2
    int64_t min_qty = INT64_MAX, max_qty = INT64_MIN;
  };
  std::map<std::string, Stats> modes;
  for (size_t r = 0; r < li.rows(); ++r) {
    Stats& s = modes[text_at(li.shipmode, r)];
    int128 qty = li.quantity.get_int(r), disc = li.discount.get_int(r);
    ++s.sums.n;
    s.sums.a += qty;
    s.sums.b += qty * qty;
    s.sums.c += li.extendedprice.get_int(r);
    s.sums.d += disc;
    s.sums.e += disc * disc;
    s.min_qty = std::min<int64_t>(s.min_qty, li.quantity.get_int(r));
    s.max_qty = std::max<int64_t>(s.max_qty, li.quantity.get_int(r));
  }
  Rows expected;
  for (const auto& [mode, s] : modes) {
    const Sums& g = s.sums;
    long double var_qty = test::sample_variance(g.n, g.a, g.b, 2);
    expected.push_back({text_cell(mode), int_cell(g.n), decimal_cell(s.min_qty, 2),
                        decimal_cell(s.max_qty, 2), avg_of_cents(g.c, g.n),
                        double_cell(std::sqrt(var_qty)),
                        double_cell(test::sample_variance(g.n, g.d, g.e, 2))});
  }
  CHECK(expected.size() == 7);
  expect_rows(run_on_lineitem("shipmode_stats"), expected);
}

TEST_CASE("queries: yearly_revenue (EXTRACT YEAR - HAVING COUNT) matches a direct loop") {
  const Lineitem& li = lineitem();
  std::map<int, Sums> years;
  for (size_t r = 0; r < li.rows(); ++r) {
    Sums& g = years[year_month_of(date_at(li.shipdate, r)).year];
    ++g.n;
    g.a += int128{li.extendedprice.get_int(r)} * (100 - li.discount.get_int(r));
  }
  Rows expected;
  for (const auto& [year, g] : years) {
    if (g.n > 1000) expected.push_back({int_cell(year), decimal_cell(g.a, 4), int_cell(g.n)});
  }
  CHECK(years.size() == 7);  // order dates 1992-01-01 .. 1998-08-02, ships 1 to 121 days later
  expect_rows(run_on_lineitem("yearly_revenue"), expected);
}

TEST_CASE("queries: quantity_buckets (CASE key - SUM of CASE) matches a direct loop") {
  const Lineitem& li = lineitem();
  std::map<std::string, std::pair<int64_t, int64_t>> sizes;  // n, returned
  for (size_t r = 0; r < li.rows(); ++r) {
    int64_t qty = li.quantity.get_int(r);  // cents
    std::string size = qty < 1000 ? "small" : qty < 3000 ? "medium" : "large";
    auto& g = sizes[size];
    ++g.first;
    g.second += text_at(li.returnflag, r) == "R" ? 1 : 0;
  }
  Rows expected;
  for (const auto& [size, g] : sizes) {
    expected.push_back({text_cell(size), int_cell(g.first), int_cell(g.second)});
  }
  CHECK(expected.size() == 3);  // "large" < "medium" < "small"
  expect_rows(run_on_lineitem("quantity_buckets"), expected);
}

TEST_CASE("queries: distinct_suppliers (COUNT DISTINCT) matches a direct loop") {
  const Lineitem& li = lineitem();
  struct Distinct {
    std::set<int64_t> suppliers;
    std::set<std::string> modes;
    int64_t n = 0;
  };
  std::map<std::string, Distinct> groups;
  for (size_t r = 0; r < li.rows(); ++r) {
    Distinct& g = groups[text_at(li.linestatus, r)];
    g.suppliers.insert(li.suppkey.get_int(r));
    g.modes.insert(text_at(li.shipmode, r));
    ++g.n;
  }
  Rows expected;
  for (const auto& [status, g] : groups) {
    expected.push_back({text_cell(status), int_cell(static_cast<int64_t>(g.suppliers.size())),
                        int_cell(static_cast<int64_t>(g.modes.size())), int_cell(g.n)});
  }
  CHECK(expected.size() == 2);
  expect_rows(run_on_lineitem("distinct_suppliers"), expected);
}

TEST_CASE("queries: like_filter (LIKE - NOT LIKE) matches a direct loop") {
  const Lineitem& li = lineitem();
  auto ends_with = [](const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
  };
  std::map<std::string, Sums> groups;
  for (size_t r = 0; r < li.rows(); ++r) {
    std::string instruct = text_at(li.shipinstruct, r);
    if (instruct.find("RE") == std::string::npos) continue;   // LIKE '%RE%'
    if (ends_with(text_at(li.shipmode, r), "AIR")) continue;  // NOT LIKE '%AIR'
    Sums& g = groups[instruct];
    ++g.n;
    g.a += li.quantity.get_int(r);
  }
  Rows expected;
  for (const auto& [instruct, g] : groups) {
    expected.push_back({text_cell(instruct), int_cell(g.n), decimal_cell(g.a, 2)});
  }
  CHECK(expected.size() == 1);  // only "TAKE BACK RETURN" contains "RE"
  expect_rows(run_on_lineitem("like_filter"), expected);
}

TEST_CASE("queries: in_list (IN - BETWEEN dates) matches a direct loop") {
  const Lineitem& li = lineitem();
  const std::set<std::string> modes = {"AIR", "REG AIR", "MAIL"};
  const int32_t from = days_since_epoch(1995, 1, 1), to = days_since_epoch(1996, 12, 31);
  std::map<std::pair<std::string, std::string>, Sums> groups;
  for (size_t r = 0; r < li.rows(); ++r) {
    std::string mode = text_at(li.shipmode, r);
    int32_t receipt = date_at(li.receiptdate, r);
    if (!modes.count(mode) || receipt < from || receipt > to) continue;
    Sums& g = groups[{mode, text_at(li.linestatus, r)}];
    ++g.n;
    g.a += li.discount.get_int(r);
  }
  Rows expected;
  for (const auto& [key, g] : groups) {
    expected.push_back(
        {text_cell(key.first), text_cell(key.second), int_cell(g.n), avg_of_cents(g.a, g.n)});
  }
  CHECK(expected.size() == 6);  // 3 modes x (F, O)
  expect_rows(run_on_lineitem("in_list"), expected);
}

TEST_CASE("queries: top_orders (many groups - ORDER BY aggregate - LIMIT) matches a direct loop") {
  const Lineitem& li = lineitem();
  std::map<int64_t, Sums> orders;
  for (size_t r = 0; r < li.rows(); ++r) {
    Sums& g = orders[li.orderkey.get_int(r)];
    ++g.n;
    g.a += li.extendedprice.get_int(r);
  }
  std::vector<std::tuple<int128, int64_t, int64_t>> ranked;  // total, orderkey, lines
  for (const auto& [key, g] : orders) ranked.emplace_back(g.a, key, g.n);
  std::sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) {
    if (std::get<0>(x) != std::get<0>(y)) return std::get<0>(x) > std::get<0>(y);
    return std::get<1>(x) < std::get<1>(y);
  });
  Rows expected;
  for (size_t i = 0; i < 10; ++i) {
    auto [total, key, lines] = ranked[i];
    expected.push_back({int_cell(key), decimal_cell(total, 2), int_cell(lines)});
  }
  expect_rows(run_on_lineitem("top_orders"), expected);
}

TEST_CASE("queries: select_distinct matches a direct loop") {
  const Lineitem& li = lineitem();
  std::set<std::pair<std::string, std::string>> pairs;
  for (size_t r = 0; r < li.rows(); ++r) {
    pairs.insert({text_at(li.returnflag, r), text_at(li.linestatus, r)});
  }
  Rows expected;
  for (const auto& [flag, status] : pairs) {
    expected.push_back({text_cell(flag), text_cell(status)});
  }
  CHECK(expected.size() == 4);
  expect_rows(run_on_lineitem("select_distinct"), expected);
}

TEST_CASE("queries: global_aggregates (no GROUP BY) matches a direct loop") {
  const Lineitem& li = lineitem();
  Sums s;  // a: qty, b: tax, c: price, d: price^2
  int128 lines = 0, lines_squared = 0;
  int32_t first_ship = INT32_MAX, last_receipt = INT32_MIN;
  for (size_t r = 0; r < li.rows(); ++r) {
    int128 price = li.extendedprice.get_int(r), line = li.linenumber.get_int(r);
    ++s.n;
    s.a += li.quantity.get_int(r);
    s.b += li.tax.get_int(r);
    s.c += price;
    s.d += price * price;
    lines += line;
    lines_squared += line * line;
    first_ship = std::min(first_ship, date_at(li.shipdate, r));
    last_receipt = std::max(last_receipt, date_at(li.receiptdate, r));
  }
  Rows expected = {{int_cell(s.n), decimal_cell(s.a, 2), avg_of_cents(s.b, s.n),
                    date_cell(first_ship), date_cell(last_receipt),
                    double_cell(std::sqrt(test::sample_variance(s.n, s.c, s.d, 2))),
                    double_cell(test::sample_variance(s.n, lines, lines_squared, 0))}};
  expect_rows(run_on_lineitem("global_aggregates"), expected);
}

TEST_CASE("queries: monthly_window (date parameters - INTERVAL MONTH - ROUND) matches a loop") {
  const Lineitem& li = lineitem();
  // [1995-03-15, 1995-03-15 + 6 months = 1995-09-15)
  const int32_t from = days_since_epoch(1995, 3, 15), to = days_since_epoch(1995, 9, 15);
  std::map<int, Sums> months;
  for (size_t r = 0; r < li.rows(); ++r) {
    int32_t ship = date_at(li.shipdate, r);
    if (ship < from || ship >= to) continue;
    Sums& g = months[year_month_of(ship).month];
    ++g.n;
    g.a += li.extendedprice.get_int(r);
  }
  Rows expected;
  for (const auto& [month, g] : months) {
    // ROUND(AVG(x), 2): AVG is DECIMAL(38,6), then rounded again to 2 places.
    int128 avg6 = divide_half_away(g.a * power_of_ten(4), g.n);
    expected.push_back(
        {int_cell(month), int_cell(g.n), decimal_cell(divide_half_away(avg6, 10000), 2)});
  }
  CHECK(expected.size() == 7);  // March .. September
  expect_rows(run_on_lineitem("monthly_window", {"1995-03-15", "1995-03-15"}), expected);
}

TEST_CASE("queries: expressions (% - CAST - ROUND - ABS - COALESCE) matches a direct loop") {
  const Lineitem& li = lineitem();
  struct Bucket {
    Sums sums;  // a: qty, b: discount
    int64_t min_tax = INT64_MAX, max_tax = INT64_MIN;
    std::string max_comment;
  };
  std::map<int64_t, Bucket> buckets;
  for (size_t r = 0; r < li.rows(); ++r) {
    int64_t line = li.linenumber.get_int(r);
    if (line == 4) continue;
    Bucket& b = buckets[line % 3];
    ++b.sums.n;
    b.sums.a += li.quantity.get_int(r);
    b.sums.b += li.discount.get_int(r);
    b.min_tax = std::min(b.min_tax, li.tax.get_int(r));
    b.max_tax = std::max(b.max_tax, li.tax.get_int(r));
    b.max_comment = std::max(b.max_comment, text_at(li.comment, r));  // byte order
  }
  Rows expected;
  for (const auto& [bucket, b] : buckets) {
    const Sums& g = b.sums;
    int128 avg6 = divide_half_away(g.b * power_of_ten(4), g.n);  // AVG(l_discount), scale 6
    expected.push_back({int_cell(bucket),
                        int_cell(static_cast<int64_t>(divide_half_away(g.a, 100))),
                        decimal_cell(divide_half_away(avg6 * 100, 1000), 3),
                        decimal_cell(b.max_tax - b.min_tax, 2), text_cell(b.max_comment)});
  }
  CHECK(expected.size() == 3);
  expect_rows(run_on_lineitem("expressions"), expected);
}

// ---- the PostgreSQL-style script ----

TEST_CASE(
    "queries: sales_script (CREATE - COPY with NULLs - GROUP BY - HAVING) gives hand results") {
  std::string script = query_file("sales_script");
  const std::string relative = "'queries/data/sales.csv'";
  size_t at = script.find(relative);
  REQUIRE(at != std::string::npos);
  script.replace(at, relative.size(), "'" TALLY_SOURCE_DIR "/queries/data/sales.csv'");
  Database db;
  Result r = run_sql(db, script);
  // queries/data/sales.csv; rows 3 (north gadget) and 7 (east gadget) are returned = t
  // and are filtered out; row 5 (south gizmo) has returned NULL and stays.
  // revenue = units * price * (1 - COALESCE(discount, 0)), scale 0 + 2 + 2 = 4:
  //   north: 10 * 2.50 * 0.90 = 22.5000, 4 * 2.50 * 1 = 10.0000     -> 32.5000
  //   south: 7 * 2.75 * 1.00 = 19.2500, NULL units -> NULL (skipped),
  //          3 * 14.50 * 0.85 = 36.9750                             -> 56.2250
  //   east:  12 * 2.40 * 0.90 = 25.9200                             -> 25.9200
  //   west:  5 * 1.00 * 1.00 = 5.0000 (product is NULL)             ->  5.0000
  // sales = COUNT(*), with_units = COUNT(units) (south: 3 rows, 2 with units),
  // products = COUNT(DISTINCT product) (south: widget, gizmo; west: only NULL -> 0).
  // Every region has some units, so HAVING keeps all; ORDER BY revenue DESC.
  Rows expected = {
      {text_cell("south"), int_cell(3), int_cell(2), decimal_cell(562250, 4),
       date_cell(days_since_epoch(2024, 3, 30)), int_cell(2)},
      {text_cell("north"), int_cell(2), int_cell(2), decimal_cell(325000, 4),
       date_cell(days_since_epoch(2024, 1, 17)), int_cell(1)},
      {text_cell("east"), int_cell(1), int_cell(1), decimal_cell(259200, 4),
       date_cell(days_since_epoch(2024, 2, 28)), int_cell(1)},
      {text_cell("west"), int_cell(1), int_cell(1), decimal_cell(50000, 4),
       date_cell(days_since_epoch(2024, 1, 1)), int_cell(0)},
  };
  expect_rows(r, expected);
  CHECK(r.names == std::vector<std::string>{"region", "sales", "with_units", "revenue", "last_sale",
                                            "products"});
}

}  // namespace
}  // namespace tally
