// Result rows held a column at a time: every type's values come back as they went in
// (8-byte cells for one-word types, 16 for DECIMAL/HUGEINT/INTERVAL), NULLs stay NULL, and
// gathering, concatenating and picking columns keep each cell with its row.
#include "runtime/result/result_rows.h"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "compiler/common/error.h"

using namespace tally;

namespace {

bool same_payload(const Value& a, const Value& b, bool wide) {
  if (a.null || b.null) return a.null == b.null;
  return wide ? a.d == b.d : a.i == b.i;
}

}  // namespace

TEST_CASE("result rows: each type's values and NULLs round-trip through their column") {
  const int128 big = (static_cast<int128>(1) << 100) + 12345;
  const struct {
    Type type;
    Value value;
    bool wide;
  } cases[] = {
      {Type::bigint(), Value::from_int(-(int64_t{1} << 62)), false},
      {Type::integer(), Value::from_int(-7), false},
      {Type::boolean(), Value::from_bool(true), false},
      {Type::double_(), Value::from_double(-0.125), false},
      {Type::date(), Value::from_int(-719162), false},
      {Type::varchar(), Value::from_int(41), false},
      {Type::decimal(38, 2), Value::from_decimal(-big), true},
      {Type::decimal(12, 2), Value::from_decimal(-123456789), true},
      {Type::hugeint(), Value::from_decimal(big), true},
      {Type::timestamp(), Value::from_int(int64_t{1} << 50), false},
  };
  for (const auto& c : cases) {
    INFO(c.type.to_string());
    ResultRows rows({c.type});
    rows.push_back({c.value});
    rows.push_back({Value()});
    REQUIRE(rows.size() == 2);
    CHECK(rows.column(0).wide() == c.wide);
    CHECK(same_payload(rows[0][0], c.value, c.wide));
    CHECK_FALSE(rows[0][0].null);
    CHECK(rows[1][0].null);
    rows.set(1, 0, c.value);
    CHECK(same_payload(rows.cell(1, 0), c.value, c.wide));
  }
  // A double keeps its bits: -0.0 stays negative.
  ResultRows doubles({Type::double_()});
  doubles.push_back({Value::from_double(-0.0)});
  CHECK(std::signbit(doubles[0][0].f));
}

TEST_CASE("result rows: gather and concatenate and columns and resize keep cells with their rows") {
  ResultRows rows({Type::bigint(), Type::decimal(38, 0)});
  for (int64_t i = 0; i < 10; ++i) {
    rows.push_back({Value::from_int(i), i % 3 == 0 ? Value() : Value::from_decimal(i * 1000)});
  }
  const ResultRows picked = rows.gather({9, 0, 4, 4});
  REQUIRE(picked.size() == 4);
  CHECK(picked[0][0].i == 9);
  CHECK(picked[0][1].null);
  CHECK(picked[2][1].d == 4000);
  CHECK(picked[3][0].i == 4);

  const ResultRows both = ResultRows::concatenate({rows.gather({1, 2}), rows.gather({3})});
  REQUIRE(both.size() == 3);
  CHECK(both[2][0].i == 3);
  CHECK(both[2][1].null);

  const ResultRows swapped = rows.columns({1, 0});
  CHECK(swapped[2][0].d == 2000);
  CHECK(swapped[2][1].i == 2);

  rows.resize(12);
  CHECK(rows[11][0].null);
  rows.keep_columns(1);
  CHECK(rows.width() == 1);
  CHECK(rows.to_vectors()[5][0].i == 5);
}

TEST_CASE("result rows: rows built without types keep whole values and check their width") {
  ResultRows rows;
  Value wide = Value::from_decimal((static_cast<int128>(1) << 90) + 3);
  rows.push_back({Value::from_int(1), wide});
  CHECK(rows.width() == 2);
  CHECK(rows[0][1].d == wide.d);
  CHECK_THROWS_AS(rows.push_back({Value::from_int(2)}), Error);
  CHECK_THROWS_AS(rows.at(1), std::out_of_range);
  CHECK_THROWS_AS(rows[0].at(2), std::out_of_range);
  CHECK(rows[0].back().d == wide.d);
}
