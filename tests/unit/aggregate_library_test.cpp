// The aggregates added to the table after the first ones (COUNT_IF, BIT_AND/OR/XOR, PRODUCT,
// ANY_VALUE/FIRST, ARG_MIN/ARG_MAX, SUM of BIGINT): their names and typing, and host states
// that, split into partial states and combined in any order, give the one state's final.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "compiler/functions/aggregate_function.h"

namespace tally {
namespace {

// A row: the value, and the key of two-argument aggregates (NULL otherwise).
struct Row {
  Value v, key;
};

void add_row(const StateInfo& s, HostAggState& state, const Row& row, const AggContext& ctx) {
  if (row.v.null) return;  // as agg_merge: NULLs never reach a state
  if (s.update_pair) {
    if (!row.key.null) s.update_pair(state, row.v, row.key, ctx);
    return;
  }
  s.update(state, row.v, ctx);
}

// The final of all rows in one state, and of the rows split at every point into two partial
// states combined either way round (and into an empty state): all must be `same`.
void check_partials(AggKind kind, const AggContext& ctx, const std::vector<Row>& rows,
                    const std::function<void(const Value&)>& check) {
  const StateInfo& s = aggregate_state(kind, ctx.arg);
  HostAggState whole;
  for (const Row& r : rows) add_row(s, whole, r, ctx);
  check(s.final(whole, ctx));
  for (size_t cut = 0; cut <= rows.size(); ++cut) {
    INFO("split at row " << cut);
    HostAggState left, right, empty;
    for (size_t i = 0; i < rows.size(); ++i) add_row(s, i < cut ? left : right, rows[i], ctx);
    HostAggState lr = left, rl = right;
    s.combine(lr, right, ctx);
    s.combine(rl, left, ctx);
    s.combine(empty, lr, ctx);
    check(s.final(lr, ctx));
    check(s.final(rl, ctx));
    check(s.final(empty, ctx));
  }
}

Row i(int64_t v) { return {Value::from_int(v), Value()}; }
Row null_row() { return {Value(), Value()}; }
Row pair(int64_t v, int64_t key) { return {Value::from_int(v), Value::from_int(key)}; }

AggContext context(const Type& arg, const Type& result) {
  AggContext ctx;
  ctx.arg = arg;
  ctx.result = result;
  return ctx;
}

}  // namespace

TEST_CASE("aggregate library: names resolve - aliases included") {
  CHECK(find_aggregate("COUNT_IF")->kind == AggKind::CountIf);
  CHECK(find_aggregate("BIT_XOR")->kind == AggKind::BitXor);
  CHECK(find_aggregate("PRODUCT")->kind == AggKind::Product);
  CHECK(find_aggregate("FIRST")->kind == AggKind::AnyValue);
  CHECK(find_aggregate("MIN_BY")->kind == AggKind::ArgMin);
  CHECK(find_aggregate("MAX_BY")->kind == AggKind::ArgMax);
  for (int k = 0; k <= static_cast<int>(AggKind::ArgMax); ++k) {
    CHECK(static_cast<int>(aggregate_function(static_cast<AggKind>(k)).kind) == k);
  }
  for (int k = 0; k <= static_cast<int>(StateKind::ArgMax); ++k) {
    const StateInfo& s = state_info(static_cast<StateKind>(k));
    CHECK(static_cast<int>(s.kind) == k);
    CHECK(s.fields.at(0) == FieldKind::Count);
  }
}

TEST_CASE("aggregate library: typing - results and the argument casts") {
  const auto typing = [](AggKind k, const Type& t) { return aggregate_function(k).typing(t); };
  CHECK(*typing(AggKind::Sum, Type::bigint()).result == Type::decimal(38, 0));
  CHECK(*typing(AggKind::Sum, Type::integer()).result == Type::bigint());
  CHECK(aggregate_state(AggKind::Sum, Type::bigint()).kind == StateKind::SumWide);
  // BIGINT variances keep the exact state (with Welford's beside it), no cast.
  CHECK_FALSE(typing(AggKind::VarSamp, Type::bigint()).cast_arg.has_value());
  CHECK(aggregate_state(AggKind::VarSamp, Type::bigint()).kind == StateKind::VarianceWide);
  CHECK(*typing(AggKind::CountIf, Type::boolean()).result == Type::bigint());
  CHECK_FALSE(typing(AggKind::CountIf, Type::integer()).result.has_value());
  CHECK(*typing(AggKind::BitAnd, Type::smallint()).result == Type::smallint());
  CHECK_FALSE(typing(AggKind::BitOr, Type::double_()).result.has_value());
  CHECK(*typing(AggKind::Product, Type::decimal(6, 2)).cast_arg == Type::double_());
  CHECK(*typing(AggKind::AnyValue, Type::varchar()).result == Type::varchar());
  const AggregateFunction& arg_min = aggregate_function(AggKind::ArgMin);
  REQUIRE(static_cast<bool>(arg_min.typing_pair));
  CHECK(*arg_min.typing_pair(Type::varchar(), Type::date()).result == Type::varchar());
  CHECK_FALSE(arg_min.typing_pair(Type::varchar(), Type::null()).result.has_value());
  CHECK_FALSE(static_cast<bool>(aggregate_function(AggKind::Count).typing_pair));
  CHECK(aggregate_function(AggKind::BitXor).distinct == DistinctRule::Accepted);
  CHECK(aggregate_function(AggKind::BitAnd).distinct == DistinctRule::Ignored);
  // ARG_MIN/ARG_MAX run on the GPU unless an argument is a HUGEINT; a wide DECIMAL takes the
  // two-pass state (compiler/plan/state_layout.cpp).
  const StateInfo& arg_max = aggregate_state(AggKind::ArgMax, Type::integer());
  CHECK(static_cast<bool>(arg_max.device_final));
  REQUIRE(static_cast<bool>(arg_max.device_refusal));
  CHECK(arg_max.device_refusal(Type::varchar(), Type::double_()) == nullptr);
  CHECK(arg_max.device_refusal(Type::date(), Type::decimal(18, 2)) == nullptr);
  CHECK(arg_max.device_refusal(Type::decimal(30, 4), Type::integer()) == nullptr);
  CHECK(arg_max.device_refusal(Type::boolean(), Type::decimal(19, 0)) == nullptr);
  CHECK(arg_max.device_refusal(Type::boolean(), Type::hugeint()) != nullptr);
  CHECK(state_info(StateKind::ArgMaxWide).fields.back() == FieldKind::ArgValueAtKey);
  CHECK(static_cast<bool>(aggregate_state(AggKind::Product, Type::double_()).device_final));
}

TEST_CASE("aggregate library: COUNT_IF partial states") {
  const AggContext ctx = context(Type::boolean(), Type::bigint());
  const std::vector<Row> rows = {{Value::from_bool(true), {}},
                                 {Value::from_bool(false), {}},
                                 null_row(),
                                 {Value::from_bool(true), {}}};
  check_partials(AggKind::CountIf, ctx, rows, [](const Value& v) {
    REQUIRE_FALSE(v.null);
    CHECK(v.i == 2);
  });
  // No true value: 0, not NULL.
  check_partials(AggKind::CountIf, ctx, {null_row(), {Value::from_bool(false), {}}},
                 [](const Value& v) { CHECK((!v.null && v.i == 0)); });
}

TEST_CASE("aggregate library: BIT_AND BIT_OR and BIT_XOR partial states") {
  const AggContext ctx = context(Type::integer(), Type::integer());
  const std::vector<Row> rows = {i(12), null_row(), i(10), i(-1), i(6)};
  // 12 & 10 & -1 & 6 = 0; 12 | 10 | -1 | 6 = -1; 12 ^ 10 ^ -1 ^ 6 = -1.
  check_partials(AggKind::BitAnd, ctx, rows, [](const Value& v) { CHECK(v.i == 0); });
  check_partials(AggKind::BitOr, ctx, rows, [](const Value& v) { CHECK(v.i == -1); });
  check_partials(AggKind::BitXor, ctx, rows, [](const Value& v) { CHECK(v.i == -1); });
  check_partials(AggKind::BitAnd, ctx, {i(12), i(10)}, [](const Value& v) { CHECK(v.i == 8); });
  check_partials(AggKind::BitXor, ctx, {i(12), i(10)}, [](const Value& v) { CHECK(v.i == 6); });
  check_partials(AggKind::BitOr, ctx, {null_row()}, [](const Value& v) { CHECK(v.null); });
}

TEST_CASE("aggregate library: PRODUCT partial states") {
  const AggContext ctx = context(Type::double_(), Type::double_());
  const auto d = [](double x) { return Row{Value::from_double(x), Value()}; };
  check_partials(AggKind::Product, ctx, {d(2), null_row(), d(-0.5), d(3), d(4)},
                 [](const Value& v) { CHECK(v.f == -12.0); });
  check_partials(AggKind::Product, ctx, {null_row()}, [](const Value& v) { CHECK(v.null); });
  check_partials(AggKind::Product, ctx, {d(7), d(0)}, [](const Value& v) { CHECK(v.f == 0.0); });
}

TEST_CASE("aggregate library: ARG_MIN and ARG_MAX partial states - ties keep the least value") {
  AggContext ctx = context(Type::integer(), Type::integer());
  ctx.key = Type::integer();
  const std::vector<Row> rows = {pair(30, 5),
                                 pair(10, 1),
                                 {Value(), Value::from_int(0)},
                                 pair(20, 1),
                                 {Value::from_int(99), Value()},
                                 pair(40, 9),
                                 pair(50, 9)};
  // Key 0's value and value 99's key are NULL: skipped. Key 1 ties 10 and 20; key 9 ties 40
  // and 50: the least value of the tie, however the rows were split.
  check_partials(AggKind::ArgMin, ctx, rows, [](const Value& v) { CHECK(v.i == 10); });
  check_partials(AggKind::ArgMax, ctx, rows, [](const Value& v) { CHECK(v.i == 40); });
  check_partials(AggKind::ArgMin, ctx, {{Value::from_int(1), Value()}},
                 [](const Value& v) { CHECK(v.null); });
}

TEST_CASE("aggregate library: SUM of BIGINT past 2^63 in partial states") {
  const AggContext ctx = context(Type::bigint(), Type::decimal(38, 0));
  const int64_t top = INT64_MAX;
  check_partials(AggKind::Sum, ctx, {i(top), i(top), i(top), null_row()},
                 [&](const Value& v) { CHECK(v.d == static_cast<int128>(top) * 3); });
  check_partials(AggKind::Sum, ctx, {i(INT64_MIN), i(INT64_MIN), i(top), i(1)},
                 [](const Value& v) { CHECK(v.d == -(static_cast<int128>(1) << 63)); });
}

TEST_CASE("aggregate library: exact variances past 128 bits answer from Welford's state") {
  const AggContext ctx = context(Type::bigint(), Type::double_());
  const int64_t top = INT64_MAX;
  // 2^63 - 1 and -2^63 twice each: mean -1/2, each value 2^63 - 1/2 away: 4 (2^63 - 1/2)^2 / 3.
  const double expected = 4.0 * 9223372036854775807.5 * 9223372036854775807.5 / 3.0;
  check_partials(AggKind::VarSamp, ctx, {i(top), i(INT64_MIN), i(top), null_row(), i(INT64_MIN)},
                 [&](const Value& v) { CHECK(std::abs(v.f - expected) <= 1e-12 * expected); });
  // Two values fit the exact state: exactly 0 for equal ones, as before.
  check_partials(AggKind::StddevSamp, ctx, {i(top), i(top)},
                 [](const Value& v) { CHECK(v.f == 0.0); });
  // Small values stay exact: 1, 2, 3 has variance 1.
  check_partials(AggKind::VarSamp, ctx, {i(1000000001), i(1000000002), i(1000000003)},
                 [](const Value& v) { CHECK(v.f == 1.0); });
}

}  // namespace tally
