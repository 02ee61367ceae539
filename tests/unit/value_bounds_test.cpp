// Interval reasoning the code generator uses to pick 32-bit arithmetic (compiler/plan/gpu_plan.h).
#include <doctest/doctest.h>

#include <cmath>

#include "compiler/ir/expr.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {
namespace {

ColumnStats range(int64_t lo, int64_t hi) {
  ColumnStats s;
  s.has_range = true;
  s.min = lo;
  s.max = hi;
  return s;
}

ExprPtr arith(int op, Type type, ExprPtr a, ExprPtr b) {
  std::vector<ExprPtr> children;
  children.push_back(std::move(a));
  children.push_back(std::move(b));
  return make_node(ExprKind::Arith, type, std::move(children), op);
}

}  // namespace

TEST_CASE("value bounds: TPC-H Q1's charge factors are non-negative 32-bit values") {
  // #0 l_extendedprice DECIMAL(15,2) in [901.00, 104949.50]; #1 l_discount in [0.00, 0.10].
  std::vector<ColumnStats> stats = {range(90100, 10494950), range(0, 10)};
  const Type price = Type::decimal(15, 2);
  ExprPtr one = make_constant(Value::from_decimal(100), Type::decimal(3, 2));
  ExprPtr factor = arith(kSub, Type::decimal(4, 2), std::move(one), make_column_ref(1, price));
  ValueBounds f = value_bounds(*factor, stats);
  REQUIRE(f.known);
  CHECK(f.lo == 90);  // 1.00 - 0.10
  CHECK(f.hi == 100);
  ExprPtr product = arith(kMul, Type::decimal(19, 4), make_column_ref(0, price), std::move(factor));
  ValueBounds p = value_bounds(*product, stats);
  REQUIRE(p.known);
  CHECK(p.lo == 90100.0L * 90);
  CHECK(p.hi == 10494950.0L * 100);
}

// A wide DECIMAL is as wide as its exact range, where its type alone says 126 bits (a 128-bit
// SUM over two rows could overflow); the int64 range of its statistics saturates.
TEST_CASE("value bounds: a 38-digit DECIMAL is as wide as its values") {
  ExprPtr amount = make_column_ref(0, Type::decimal(38, 2));
  auto wide = [](int128 lo, int128 hi, bool values) {
    ColumnStats s;  // as runtime/storage/scan_stats.cpp gives a wide column: no int64 range
    s.min = INT64_MIN;
    s.max = INT64_MAX;
    s.wide_min = lo;
    s.wide_max = hi;
    s.has_values = values;
    return std::vector<ColumnStats>{s};
  };
  CHECK(magnitude_log2(*amount, wide(-1000, 1 << 20, true)) == doctest::Approx(20));
  CHECK(magnitude_log2(*amount, wide(-(int128{1} << 80), 5, true)) == doctest::Approx(80));
  CHECK(magnitude_log2(*amount, wide(0, int128{3} << 100, true)) ==
        doctest::Approx(100 + std::log2(3.0L)));
  CHECK(magnitude_log2(*amount, wide(0, 0, false)) > 125);  // only NULLs: the type's bound
}

// A CASE without ELSE has a NULL branch, which adds nothing; ROUND moves the unscaled digits
// and may carry one step up (ROUND(49.99, -2) is 0, ROUND(50.00, -2) is 100).
TEST_CASE("value bounds: magnitudes of a CASE without ELSE and of ROUND") {
  ColumnStats s;  // a wide column: no int64 range, so the interval analysis knows nothing
  s.wide_min = -5000;
  s.wide_max = 9000;
  const std::vector<ColumnStats> stats = {s};
  ExprPtr x = make_column_ref(0, Type::decimal(38, 2));
  ExprPtr positive = make_node(ExprKind::Compare, Type::boolean(), {x, x});
  ExprPtr no_else = make_node(ExprKind::Case, x->type, {positive, x, make_null_constant(x->type)});
  CHECK(magnitude_log2(*no_else, stats) == doctest::Approx(std::log2(9000.0L)));
  auto round = [&](int digits, int scale) {
    auto r = std::make_shared<Expr>(*make_node(ExprKind::Round, Type::decimal(38, scale), {x}));
    r->digits = digits;
    return magnitude_log2(*r, stats);
  };
  CHECK(round(1, 1) == doctest::Approx(std::log2(900.0L) + 1));  // |r| <= 900.0 + 0.05
  CHECK(round(2, 2) == doctest::Approx(std::log2(9000.0L) + 1));
  CHECK(round(-2, 0) == doctest::Approx(std::log2(100.0L) + 1));  // 90.00 -> 100: the step
  CHECK(std::exp2(round(-2, 0)) >= 100);
}

TEST_CASE("value bounds: signs - scales and what stays unknown") {
  std::vector<ColumnStats> stats = {range(-5, 7), ColumnStats{}};
  const Type i = Type::integer();
  ValueBounds neg = value_bounds(*make_node(ExprKind::Negate, i, {make_column_ref(0, i)}), stats);
  REQUIRE(neg.known);
  CHECK(neg.lo == -7);
  CHECK(neg.hi == 5);
  // A product of a negative and a positive range spans both signs.
  ValueBounds sq =
      value_bounds(*arith(kMul, i, make_column_ref(0, i), make_column_ref(0, i)), stats);
  REQUIRE(sq.known);
  CHECK(sq.lo == -35);
  CHECK(sq.hi == 49);
  // Upscaling an INTEGER to DECIMAL(12,2) multiplies the unscaled bounds by 100.
  ValueBounds up = value_bounds(*make_cast(make_column_ref(0, i), Type::decimal(12, 2)), stats);
  REQUIRE(up.known);
  CHECK(up.lo == -500);
  CHECK(up.hi == 700);
  // A divisor that may be 0 or of either sign: |a / b| <= |a|.
  ValueBounds div =
      value_bounds(*arith(kDiv, i, make_column_ref(0, i), make_column_ref(0, i)), stats);
  REQUIRE(div.known);
  CHECK(div.lo == -7);
  CHECK(div.hi == 7);
  // No statistics, or a DOUBLE: unknown.
  CHECK_FALSE(value_bounds(*make_column_ref(1, i), stats).known);
  CHECK_FALSE(value_bounds(*make_column_ref(0, Type::double_()), stats).known);
}

}  // namespace tally

namespace tally {
namespace {

ExprPtr node(ExprKind kind, Type type, std::vector<ExprPtr> children, int op = 0) {
  return make_node(kind, type, std::move(children), op);
}

ExprPtr integer(int64_t v) { return make_constant(Value::from_int(v), Type::bigint()); }

}  // namespace

TEST_CASE("value bounds: MOD and division by constants and by known parameters") {
  std::vector<ColumnStats> stats = {range(0, 1000000), range(-50, 70)};
  ExprPtr x = make_column_ref(0, Type::bigint());
  ExprPtr y = make_column_ref(1, Type::bigint());
  ValueBounds m = value_bounds(*arith(kMod, Type::bigint(), x, integer(1000)), stats);
  REQUIRE(m.known);
  CHECK(m.lo == 0);  // a non-negative dividend
  CHECK(m.hi == 999);
  // The sign follows the dividend; a small dividend is its own remainder.
  ValueBounds s = value_bounds(*arith(kMod, Type::bigint(), y, integer(10)), stats);
  REQUIRE(s.known);
  CHECK(s.lo == -9);
  CHECK(s.hi == 9);
  ValueBounds small = value_bounds(*arith(kMod, Type::bigint(), y, integer(100)), stats);
  CHECK(small.lo == -50);
  CHECK(small.hi == 70);
  ValueBounds q = value_bounds(*arith(kDiv, Type::bigint(), x, integer(7)), stats);
  REQUIRE(q.known);
  CHECK(q.hi == 142857);
  // MOD by zero (an error), or by an unknown parameter, lies between 0 and the dividend; by a
  // known parameter it is bounded by the divisor too.
  ValueBounds by_zero = value_bounds(*arith(kMod, Type::bigint(), y, integer(0)), stats);
  REQUIRE(by_zero.known);
  CHECK(by_zero.lo == -50);
  CHECK(by_zero.hi == 70);
  auto p = std::make_shared<Expr>();
  p->kind = ExprKind::Parameter;
  p->type = Type::bigint();
  p->index = 0;
  ExprPtr by_param = arith(kMod, Type::bigint(), x, p);
  ValueBounds unknown_divisor = value_bounds(*by_param, stats);
  REQUIRE(unknown_divisor.known);
  CHECK(unknown_divisor.lo == 0);
  CHECK(unknown_divisor.hi == 1000000);
  const std::vector<Value> values = {Value::from_int(64)};
  ValueBounds pb = value_bounds(*by_param, stats, &values);
  REQUIRE(pb.known);
  CHECK(pb.hi == 63);
}

TEST_CASE("value bounds: EXTRACT from a date column's range - CASE over constants") {
  // 1992-01-02 .. 1998-12-01 as days since 1970-01-01.
  std::vector<ColumnStats> stats = {range(8036, 10561)};
  ExprPtr d = make_column_ref(0, Type::date());
  auto extract = [&](int field) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Extract;
    e->type = Type::bigint();
    e->op = field;
    e->children = {d};
    return e;
  };
  ValueBounds year = value_bounds(*extract(kYear), stats);
  REQUIRE(year.known);
  CHECK(year.lo == 1992);
  CHECK(year.hi == 1998);
  ValueBounds month = value_bounds(*extract(kMonth), stats);
  CHECK(month.lo == 1);
  CHECK(month.hi == 12);
  ExprPtr when = node(ExprKind::Compare, Type::boolean(),
                      {d, make_constant(Value::from_int(9000), Type::date())}, kLt);
  ValueBounds pick =
      value_bounds(*node(ExprKind::Case, Type::bigint(), {when, integer(3), integer(-2)}), stats);
  REQUIRE(pick.known);
  CHECK(pick.lo == -2);
  CHECK(pick.hi == 3);
  // A branch that reads an unbounded value leaves the CASE unknown.
  ExprPtr unbounded = make_column_ref(1, Type::bigint());
  stats.push_back(ColumnStats{});
  CHECK_FALSE(
      value_bounds(*node(ExprKind::Case, Type::bigint(), {when, integer(3), unbounded}), stats)
          .known);
}

TEST_CASE("value bounds: a BOOLEAN expression is 0 or 1 - whatever it reads") {
  std::vector<ColumnStats> stats = {ColumnStats{}, ColumnStats{}};  // nothing known of either
  ExprPtr a = make_column_ref(0, Type::varchar(8));
  ExprPtr b = make_column_ref(1, Type::double_());
  ExprPtr less = node(ExprKind::Compare, Type::boolean(), {a, a}, kLt);
  ExprPtr positive = node(ExprKind::Compare, Type::boolean(),
                          {b, make_constant(Value::from_double(0), Type::double_())}, kGt);
  for (const ExprPtr& e :
       {less, positive, node(ExprKind::And, Type::boolean(), {less, positive}),
        node(ExprKind::IsNull, Type::boolean(), {b}), make_column_ref(0, Type::boolean())}) {
    INFO(static_cast<int>(e->kind));
    ValueBounds v = value_bounds(*e, stats);
    REQUIRE(v.known);
    CHECK(v.lo == 0);
    CHECK(v.hi == 1);
  }
  // A constant keeps its one value.
  ValueBounds yes = value_bounds(*make_constant(Value::from_int(1), Type::boolean()), stats);
  CHECK(yes.lo == 1);
}

}  // namespace tally

namespace tally {

// A DECIMAL quotient at scale 6 is the dividend raised to scale 6 + the divisor's over the
// divisor's unscaled value, rounded: one more in magnitude than truncation at most.
TEST_CASE("value bounds: DECIMAL division - remainder and ROUND keep the rounded bounds") {
  // #0 DECIMAL(15,2) in [-12.34, 567.89]; #1 DECIMAL(4,1) in [0.5, 2.0]; #2 INTEGER in [-75, 1249]
  const std::vector<ColumnStats> stats = {range(-1234, 56789), range(5, 20), range(-75, 1249)};
  ExprPtr x = make_column_ref(0, Type::decimal(15, 2));
  ExprPtr d = make_column_ref(1, Type::decimal(4, 1));
  ExprPtr n = make_column_ref(2, Type::integer());
  // x / d at scale 6: x * 10^5 (raised from scale 2 to 6 + 1) over d's 5..20.
  const ValueBounds q = value_bounds(*arith(kDiv, Type::decimal(38, 6), x, d), stats);
  REQUIRE(q.known);
  CHECK(q.lo == -1234LL * 100000 / 5 - 1);
  CHECK(q.hi == 56789LL * 100000 / 5 + 1);
  auto round = [&](const ExprPtr& c, int digits, Type type) {
    auto r = std::make_shared<Expr>(*make_node(ExprKind::Round, type, {c}));
    r->digits = digits;
    return value_bounds(*r, stats);
  };
  const ValueBounds r1 = round(x, 1, Type::decimal(15, 1));  // -12.34 -> -12.4 (floor), 567.9
  CHECK(r1.lo == -124);
  CHECK(r1.hi == 5679);
  const ValueBounds r4 = round(x, 4, Type::decimal(17, 4));  // more places: raised
  CHECK(r4.lo == -123400);
  CHECK(r4.hi == 5678900);
  const ValueBounds tens = round(x, -1, Type::decimal(15, 0));  // to tens: -20 .. 570
  CHECK(tens.lo == -20);
  CHECK(tens.hi == 570);
  const ValueBounds hundreds = round(n, -2, Type::integer());  // -100 .. 1300
  CHECK(hundreds.lo == -100);
  CHECK(hundreds.hi == 1300);
  const ValueBounds same = round(n, 2, Type::integer());
  CHECK(same.lo == -75);
  CHECK(same.hi == 1249);
  // x % d at scale 2: both raised to it, d's 0.50..2.00 as 50..200, the sign x's.
  const ValueBounds m = value_bounds(*arith(kMod, Type::decimal(15, 2), x, d), stats);
  REQUIRE(m.known);
  CHECK(m.lo == -199);
  CHECK(m.hi == 199);
  // n % 7.5 at scale 1: n's -75..1249 as -750..12490, below 75 in magnitude.
  const ValueBounds by_constant =
      value_bounds(*arith(kMod, Type::decimal(11, 1), n,
                          make_constant(Value::from_decimal(75), Type::decimal(2, 1))),
                   stats);
  REQUIRE(by_constant.known);
  CHECK(by_constant.lo == -74);
  CHECK(by_constant.hi == 74);
}

}  // namespace tally
