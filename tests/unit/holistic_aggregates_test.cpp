// The holistic aggregates (MEDIAN, QUANTILE_CONT/DISC, MODE, STRING_AGG, FIRST/LAST with
// ORDER BY): their value-list states give the same final however the rows are split into
// partial states and in whichever order those combine; ties and NULL sort keys follow the
// documented rules.
#include <doctest/doctest.h>

#include <functional>
#include <utility>
#include <vector>

#include "compiler/common/error.h"
#include "compiler/functions/aggregate_function.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

// A row: the value and, for an ordered call, its one sort key.
using Row = std::pair<Value, Value>;

// The final of every split of the rows into two states, combined either way round.
void check_splits(AggKind kind, const AggContext& ctx, const std::vector<Row>& rows,
                  const std::function<void(const Value&)>& check) {
  const StateInfo& s = aggregate_state(kind, ctx.arg);
  for (size_t cut = 0; cut <= rows.size(); ++cut) {
    INFO("split at row " << cut);
    HostAggState left, right;
    for (size_t i = 0; i < rows.size(); ++i) {
      HostAggState& into = i < cut ? left : right;
      if (rows[i].first.null) continue;  // as agg_merge: NULLs never reach a state
      s.update(into, rows[i].first, ctx);
      if (!ctx.order.empty()) into.sort_keys.push_back(rows[i].second);
    }
    HostAggState lr = left, rl = right;
    s.combine(lr, right, ctx);
    s.combine(rl, left, ctx);
    check(s.final(lr, ctx));
    check(s.final(rl, ctx));
  }
}

std::vector<Row> ints(std::initializer_list<int64_t> values) {
  std::vector<Row> rows;
  for (int64_t v : values) rows.push_back({Value::from_int(v), Value()});
  return rows;
}

AggContext context(const Type& arg, double fraction = 0.5, bool descending = false) {
  AggContext ctx;
  ctx.arg = ctx.result = arg;
  ctx.fraction = fraction;
  ctx.descending = descending;
  return ctx;
}

}  // namespace

TEST_CASE("holistic aggregates: the table lists every kind once - in order") {
  for (int k = 0; k <= static_cast<int>(AggKind::ApproxCountDistinct); ++k) {
    CHECK(static_cast<int>(aggregate_function(static_cast<AggKind>(k)).kind) == k);
  }
  for (int k = 0; k <= static_cast<int>(StateKind::ApproxDistinct); ++k) {
    const StateInfo& s = state_info(static_cast<StateKind>(k));
    CHECK(static_cast<int>(s.kind) == k);
    // A value list has no device final: the GPU planner declines it. The sketch has one.
    if (s.holistic) {
      CHECK(static_cast<bool>(s.device_final) == (s.kind == StateKind::ApproxDistinct));
    }
  }
  CHECK(find_aggregate("QUANTILE")->kind == AggKind::QuantileDisc);
  CHECK(find_aggregate("LISTAGG")->kind == AggKind::StringAgg);
  CHECK(find_aggregate("FIRST")->ordered->kind == AggKind::FirstOrdered);
  CHECK(find_aggregate("SUM")->ordered == nullptr);
  CHECK(find_aggregate("PERCENTILE_CONT")->within_group == WithinGroupRule::Required);
  CHECK(*aggregate_function(AggKind::Median).typing(Type::integer()).result == Type::double_());
  CHECK(*aggregate_function(AggKind::Median).typing(Type::decimal(9, 2)).result ==
        Type::decimal(9, 2));
  CHECK(*aggregate_function(AggKind::QuantileDisc).typing(Type::smallint()).result ==
        Type::smallint());
}

TEST_CASE("holistic aggregates: QUANTILE_CONT interpolates - whatever the split") {
  const std::vector<Row> rows = ints({40, 10, 30, 20});
  check_splits(AggKind::QuantileCont, context(Type::integer(), 0.25), rows,
               [](const Value& v) { CHECK(v.f == 17.5); });
  check_splits(AggKind::QuantileCont, context(Type::integer(), 0.25, true), rows,
               [](const Value& v) { CHECK(v.f == 32.5); });
  check_splits(AggKind::QuantileCont, context(Type::decimal(6, 2), 0.5),
               {{Value::from_decimal(101), {}}, {Value::from_decimal(102), {}}},
               [](const Value& v) { CHECK(v.d == 102); });  // 1.015 rounds away from zero
  check_splits(AggKind::QuantileCont, context(Type::decimal(6, 2), 0.5),
               {{Value::from_decimal(-101), {}}, {Value::from_decimal(-102), {}}},
               [](const Value& v) { CHECK(v.d == -102); });
  check_splits(AggKind::QuantileCont, context(Type::date(), 0.5), ints({0, 3}),
               [](const Value& v) { CHECK(v.i == 1); });
  check_splits(AggKind::QuantileCont, context(Type::integer()), {},
               [](const Value& v) { CHECK(v.null); });
}

TEST_CASE("holistic aggregates: QUANTILE_DISC takes row ceil(f * n)") {
  const std::vector<Row> rows = ints({5, 1, 4, 2, 3});
  for (auto [fraction, expected] : std::vector<std::pair<double, int64_t>>{
           {0.0, 1}, {0.2, 1}, {0.21, 2}, {0.5, 3}, {0.8, 4}, {1.0, 5}}) {
    INFO("fraction " << fraction);
    check_splits(AggKind::QuantileDisc, context(Type::bigint(), fraction), rows,
                 [&](const Value& v) { CHECK(v.i == expected); });
  }
}

TEST_CASE("holistic aggregates: MODE ties go to the first in sort order") {
  const std::vector<Row> rows = ints({7, 3, 7, 3, 9});
  check_splits(AggKind::Mode, context(Type::integer()), rows,
               [](const Value& v) { CHECK(v.i == 3); });
  check_splits(AggKind::Mode, context(Type::integer(), 0.5, true), rows,
               [](const Value& v) { CHECK(v.i == 7); });
  check_splits(AggKind::Mode, context(Type::integer()), ints({9, 1, 9}),
               [](const Value& v) { CHECK(v.i == 9); });
}

TEST_CASE("holistic aggregates: STRING_AGG and FIRST/LAST follow ORDER BY - NULL keys last") {
  StringHeap strings;
  std::vector<Row> rows;
  const std::vector<std::pair<const char*, Value>> input = {{"c", Value::from_int(3)},
                                                            {"n", Value()},
                                                            {"a", Value::from_int(1)},
                                                            {"b", Value::from_int(1)}};
  for (const auto& [text, key] : input)
    rows.push_back({Value::from_int(strings.intern(text)), key});
  AggContext ctx;
  ctx.arg = ctx.result = Type::varchar();
  ctx.strings = &strings;
  ctx.results = &strings;
  ctx.separator = "|";
  ctx.order.push_back({Type::integer(), false, false});
  // a and b tie on the key: by value.
  check_splits(AggKind::StringAgg, ctx, rows,
               [&](const Value& v) { CHECK(strings.get(v.i) == "a|b|c|n"); });
  check_splits(AggKind::FirstOrdered, ctx, rows,
               [&](const Value& v) { CHECK(strings.get(v.i) == "a"); });
  check_splits(AggKind::LastOrdered, ctx, rows,
               [&](const Value& v) { CHECK(strings.get(v.i) == "n"); });
  ctx.order[0] = {Type::integer(), true, false};  // DESC NULLS LAST
  check_splits(AggKind::StringAgg, ctx, rows,
               [&](const Value& v) { CHECK(strings.get(v.i) == "c|a|b|n"); });
}

// Errors in a holistic call name where they are: the fraction, WITHIN GROUP, the call.
TEST_CASE("holistic aggregates: errors carry their line and column") {
  Database db;
  test::run_script(db, "CREATE TABLE q (i INTEGER, s VARCHAR(3))");
  struct Case {
    const char* sql;
    ErrorKind kind;
    int line, column;
  };
  for (const Case& c : std::vector<Case>{
           {"SELECT QUANTILE_CONT(i, 1.5) FROM q", ErrorKind::Binder, 1, 25},
           {"SELECT 1,\n  PERCENTILE_DISC(2) WITHIN GROUP (ORDER BY i) FROM q", ErrorKind::Binder,
            2, 19},
           {"SELECT SUM(i) WITHIN GROUP (ORDER BY i) FROM q", ErrorKind::Binder, 1, 15},
           {"SELECT PERCENTILE_CONT(0.5) FROM q", ErrorKind::Binder, 1, 8},
           {"SELECT STRING_AGG(s, s) FROM q", ErrorKind::Unsupported, 1, 22},
           {"SELECT STRING_AGG(s ORDER BY i) WITHIN GROUP (ORDER BY i) FROM q", ErrorKind::Syntax,
            1, 33},
       }) {
    INFO(c.sql);
    try {
      test::run_sql(db, c.sql);
      FAIL("no error");
    } catch (const Error& e) {
      INFO(e.what());
      CHECK(e.kind() == c.kind);
      REQUIRE(e.location().has_value());
      CHECK(e.location()->line == c.line);
      CHECK(e.location()->column == c.column);
    }
  }
}

}  // namespace tally
