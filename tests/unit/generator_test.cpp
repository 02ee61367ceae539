#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compiler/common/date.h"
#include "compiler/common/error.h"
#include "runtime/load/parallel.h"
#include "tests/unit/support/table_compare.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

const Column& column(const Table& table, const std::string& name) {
  int index = table.schema.find_column(name);
  REQUIRE(index >= 0);
  return *table.columns[static_cast<size_t>(index)];
}

std::string string_at(const Column& c, size_t row) {
  return c.dictionary().at(static_cast<size_t>(c.get_int(row)));
}

bool same_table(const Table& a, const Table& b) { return !test::first_difference(a, b); }

// TPC-H spec 4.2.3, written out again here as the reference.
int64_t spec_retail_price_cents(int64_t partkey) {
  return 90000 + ((partkey / 10) % 20001) + 100 * (partkey % 1000);
}

std::set<int64_t> spec_suppliers(int64_t partkey, int64_t s) {
  std::set<int64_t> suppliers;
  for (int64_t i = 0; i < 4; ++i) {
    suppliers.insert((partkey + i * (s / 4 + (partkey - 1) / s)) % s + 1);
  }
  return suppliers;
}

TEST_CASE("generator: lineitem at SF 0.01 follows the TPC-H value rules row by row") {
  auto table = generate_lineitem(0.01);
  const Table& t = *table;
  CHECK(t.schema.name == "lineitem");
  REQUIRE(t.columns.size() == 16);
  CHECK(t.rows() >= 55000);
  CHECK(t.rows() <= 65000);
  for (size_t c = 0; c < t.columns.size(); ++c) {
    CHECK(t.schema.columns[c].not_null);
    CHECK_FALSE(t.columns[c]->has_nulls());
  }
  CHECK(column(t, "l_quantity").type() == Type::decimal(15, 2));
  CHECK(column(t, "l_orderkey").type() == Type::bigint());
  CHECK(column(t, "l_shipdate").type() == Type::date());
  CHECK(column(t, "l_comment").type() == Type::varchar(44));
  CHECK(column(t, "l_shipmode").type() == Type::char_(10));

  const int64_t parts = 2000, suppliers = 100, orders = 15000;
  const int32_t first_order_day = days_from_civil(1992, 1, 1);
  const int32_t last_order_day = days_from_civil(1998, 12, 31) - 151;
  const int32_t current = days_from_civil(1995, 6, 17);
  const std::set<std::string> instructions = {"DELIVER IN PERSON", "COLLECT COD", "NONE",
                                              "TAKE BACK RETURN"};
  const std::set<std::string> modes = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
  const Column& orderkey = column(t, "l_orderkey");
  const Column& partkey = column(t, "l_partkey");
  const Column& suppkey = column(t, "l_suppkey");
  const Column& linenumber = column(t, "l_linenumber");
  const Column& quantity = column(t, "l_quantity");
  const Column& price = column(t, "l_extendedprice");
  const Column& discount = column(t, "l_discount");
  const Column& tax = column(t, "l_tax");
  const Column& returnflag = column(t, "l_returnflag");
  const Column& linestatus = column(t, "l_linestatus");
  const Column& shipdate = column(t, "l_shipdate");
  const Column& commitdate = column(t, "l_commitdate");
  const Column& receiptdate = column(t, "l_receiptdate");
  const Column& shipinstruct = column(t, "l_shipinstruct");
  const Column& shipmode = column(t, "l_shipmode");
  const Column& comment = column(t, "l_comment");

  int64_t order_index = -1;
  // The order date is not a column: the range it must lie in, narrowed by every line.
  int64_t order_day_lo = 0, order_day_hi = 0;
  std::set<std::string> seen_instructions, seen_modes, seen_flags;
  size_t failures = 0;
  auto check_order_dates = [&] {
    if (order_index < 0) return;
    if (std::max<int64_t>(order_day_lo, first_order_day) >
        std::min<int64_t>(order_day_hi, last_order_day)) {
      ++failures;
    }
  };
  for (size_t row = 0; row < t.rows(); ++row) {
    int64_t line = linenumber.get_int(row);
    if (line == 1) {
      check_order_dates();
      ++order_index;
      order_day_lo = first_order_day - 1000;
      order_day_hi = last_order_day + 1000;
    } else if (line > 7 || orderkey.get_int(row) != orderkey.get_int(row - 1) ||
               linenumber.get_int(row - 1) != line - 1) {
      ++failures;  // lines of an order are numbered 1..count, count <= 7
    }
    int64_t o = order_index;
    if (orderkey.get_int(row) != (o / 8) * 32 + o % 8 + 1) ++failures;

    int64_t part = partkey.get_int(row);
    if (part < 1 || part > parts) ++failures;
    if (!spec_suppliers(part, suppliers).count(suppkey.get_int(row))) ++failures;
    int64_t q = quantity.get_int(row);
    if (q % 100 != 0 || q < 100 || q > 5000) ++failures;
    if (price.get_int(row) != q / 100 * spec_retail_price_cents(part)) ++failures;
    if (discount.get_int(row) < 0 || discount.get_int(row) > 10) ++failures;
    if (tax.get_int(row) < 0 || tax.get_int(row) > 8) ++failures;

    int64_t ship = shipdate.get_int(row), commit = commitdate.get_int(row);
    int64_t receipt = receiptdate.get_int(row);
    order_day_lo = std::max({order_day_lo, ship - 121, commit - 90});
    order_day_hi = std::min({order_day_hi, ship - 1, commit - 30});
    if (receipt - ship < 1 || receipt - ship > 30) ++failures;

    std::string flag = string_at(returnflag, row);
    seen_flags.insert(flag);
    if (receipt <= current ? (flag != "R" && flag != "A") : flag != "N") ++failures;
    if (string_at(linestatus, row) != (ship > current ? "O" : "F")) ++failures;
    std::string instruct = string_at(shipinstruct, row), mode = string_at(shipmode, row);
    if (!instructions.count(instruct) || !modes.count(mode)) ++failures;
    seen_instructions.insert(instruct);
    seen_modes.insert(mode);
    size_t length = string_at(comment, row).size();
    if (length < 10 || length > 43) ++failures;
  }
  check_order_dates();
  CHECK(failures == 0);
  CHECK(order_index + 1 == orders);
  CHECK(seen_instructions == instructions);
  CHECK(seen_modes == modes);
  CHECK(seen_flags == std::set<std::string>{"A", "N", "R"});
  // Pool of about 4096 comments: many repeat, but there are thousands of them.
  CHECK(comment.dictionary().size() > 3000);
  CHECK(comment.dictionary().size() <= 4096);
  // About 4 lines per order on average (uniform 1..7).
  CHECK(std::abs(static_cast<double>(t.rows()) / orders - 4.0) < 0.1);
}

TEST_CASE("generator: lineitem is deterministic per seed and differs across seeds") {
  auto a = generate_lineitem(0.002, 7);
  auto b = generate_lineitem(0.002, 7);
  auto c = generate_lineitem(0.002, 8);
  CHECK(same_table(*a, *b));
  CHECK_FALSE(same_table(*a, *c));
  // 3,000 orders of 1..7 lines.
  CHECK(a->rows() >= 3000);
  CHECK(a->rows() <= 21000);
}

TEST_CASE("generator: lineitem rejects a non-positive scale factor") {
  CHECK_THROWS_AS(generate_lineitem(0), Error);
  CHECK_THROWS_AS(generate_lineitem(-1), Error);
}

TEST_CASE("generator: Query A orders table has plausible amounts") {
  const uint32_t zips = 50;
  auto table = generate_orders_table(20000, zips, 3);
  const Table& t = *table;
  REQUIRE(t.rows() == 20000);
  CHECK(column(t, "zip").type() == Type::integer());
  CHECK(column(t, "chargedamount").type() == Type::real());
  const Column& zip_column = column(t, "zip");
  const Column& charged_column = column(t, "chargedamount");
  const Column& tax_column = column(t, "tax");
  const Column& total_column = column(t, "ordertotal");
  std::set<int64_t> seen_zips;
  size_t failures = 0;
  for (size_t row = 0; row < t.rows(); ++row) {
    int64_t zip = zip_column.get_int(row);
    double charged = charged_column.get_double(row);
    double tax = tax_column.get_double(row);
    double total = total_column.get_double(row);
    seen_zips.insert(zip);
    if (zip < 0 || zip >= zips) ++failures;
    if (!(total >= 1 && total <= 1000.0001)) ++failures;
    if (!(tax >= 0 && tax < charged && charged <= total)) ++failures;
    // 30 % at most off, tax included.
    if (charged < 0.69 * total) ++failures;
  }
  CHECK(failures == 0);
  CHECK(seen_zips.size() == zips);
  CHECK(same_table(t, *generate_orders_table(20000, zips, 3)));
  CHECK_FALSE(same_table(t, *generate_orders_table(20000, zips, 4)));
}

TEST_CASE("generator: Query B atable - uniform keys") {
  const uint64_t range = 1000;
  auto table = generate_atable(100000, range, 0, 1);
  const Table& t = *table;
  REQUIRE(t.rows() == 100000);
  CHECK(column(t, "col1").type() == Type::bigint());
  CHECK(column(t, "col2").type() == Type::integer());
  CHECK(column(t, "col3").type() == Type::double_());
  CHECK(column(t, "col4").type() == Type::decimal(12, 2));
  const Column& col1 = column(t, "col1");
  const Column& col2 = column(t, "col2");
  const Column& col3 = column(t, "col3");
  const Column& col4 = column(t, "col4");
  std::vector<size_t> per_tenth(10, 0);
  size_t failures = 0;
  for (size_t row = 0; row < t.rows(); ++row) {
    int64_t key = col1.get_int(row);
    if (key < 0 || key >= static_cast<int64_t>(range)) {
      ++failures;
      continue;
    }
    ++per_tenth[static_cast<size_t>(key) / 100];
    int64_t v2 = col2.get_int(row);
    double v3 = col3.get_double(row);
    int64_t v4 = col4.get_int(row);
    if (v2 < 0 || v2 >= 1000000 || v3 < 0 || v3 >= 1000) ++failures;
    if (v4 < 0 || v4 > 1000000) ++failures;
  }
  CHECK(failures == 0);
  // 10,000 expected per tenth of the range; a binomial sd is under 100.
  for (size_t count : per_tenth) CHECK(std::abs(static_cast<double>(count) - 10000) < 500);
}

TEST_CASE("generator: Query B atable - Zipf keys") {
  const uint64_t range = 1000;
  const size_t rows = 200000;
  for (double s : {0.5, 1.0, 1.5}) {
    CAPTURE(s);
    auto table = generate_atable(rows, range, s, 2);
    const Column& keys = column(*table, "col1");
    std::map<int64_t, size_t> counts;
    for (size_t row = 0; row < rows; ++row) ++counts[keys.get_int(row)];
    CHECK(counts.begin()->first >= 0);
    CHECK(counts.rbegin()->first < static_cast<int64_t>(range));
    // P(key k) = (k + 1)^-s / H, H = sum over the range.
    double h = 0;
    for (uint64_t k = 1; k <= range; ++k) h += std::pow(static_cast<double>(k), -s);
    for (int64_t key : {0, 1, 9, 99}) {
      CAPTURE(key);
      double expected = rows * std::pow(static_cast<double>(key + 1), -s) / h;
      double sd = std::sqrt(expected);
      CHECK(std::abs(static_cast<double>(counts[key]) - expected) < 5 * sd + 1);
    }
  }
  CHECK(
      same_table(*generate_atable(5000, 1 << 30, 1.2, 9), *generate_atable(5000, 1 << 30, 1.2, 9)));
}

TEST_CASE("generator: nulls table has every type - NULLs and small domains") {
  const size_t rows = 20000;
  auto table = generate_nulls_table(rows, 0.2, 5);
  const Table& t = *table;
  REQUIRE(t.rows() == rows);
  std::vector<TypeId> types;
  for (const auto& c : t.schema.columns) types.push_back(c.type.id);
  for (TypeId id : {TypeId::SmallInt, TypeId::Integer, TypeId::BigInt, TypeId::Real, TypeId::Double,
                    TypeId::Decimal, TypeId::Date, TypeId::Varchar, TypeId::Boolean}) {
    CHECK(std::count(types.begin(), types.end(), id) >= 1);
  }
  CHECK(column(t, "c_wide").type().is_wide_decimal());
  for (size_t c = 0; c < t.columns.size(); ++c) {
    const Column& col = *t.columns[c];
    CAPTURE(t.schema.columns[c].name);
    // 4,000 NULLs expected; a binomial sd is about 57.
    CHECK(std::abs(static_cast<double>(col.null_count()) - 4000) < 300);
    std::set<std::string> distinct;
    for (size_t row = 0; row < rows; ++row) {
      if (!col.is_valid(row)) continue;
      if (col.type().is_string())
        distinct.insert(string_at(col, row));
      else if (col.type().is_float())
        distinct.insert(std::to_string(col.get_double(row)));
      else
        distinct.insert(std::to_string(static_cast<double>(col.get_wide(row))));
    }
    CHECK(distinct.size() == (col.type().id == TypeId::Boolean ? 2 : 10));
  }
  auto none = generate_nulls_table(100, 0, 5);
  for (const auto& col : none->columns) CHECK_FALSE(col->has_nulls());
}

TEST_CASE("generator: parallel chunks join in item order whatever their number") {
  for (size_t items : {0, 1, 100, 16384 * 3 + 5, 1000000}) {
    CAPTURE(items);
    TableSchema schema{"n", {{"item", Type::bigint()}, {"text", Type::varchar()}}};
    auto table = build_table_parallel(schema, items, [](auto& columns, size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        columns[0].append_int(static_cast<int64_t>(i));
        columns[1].append_string(i % 3 ? "x" : "y");
      }
    });
    REQUIRE(table->rows() == items);
    size_t out_of_order = 0;
    for (size_t row = 0; row < items; ++row) {
      out_of_order += table->columns[0]->get_int(row) != static_cast<int64_t>(row);
      out_of_order += string_at(*table->columns[1], row) != (row % 3 ? "x" : "y");
    }
    CHECK(out_of_order == 0);
  }
}

TEST_CASE("generator: run_parallel runs every task once and rethrows the first failure") {
  std::vector<int> runs(1000, 0);
  run_parallel(runs.size(), [&](size_t task) { ++runs[task]; });
  CHECK(std::count(runs.begin(), runs.end(), 1) == 1000);
  try {
    run_parallel(50, [](size_t task) {
      if (task % 10 == 7) throw Error(ErrorKind::Data, "task " + std::to_string(task));
    });
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "task 7");
  }
}

}  // namespace
}  // namespace tally
