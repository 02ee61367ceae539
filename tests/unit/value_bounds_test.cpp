// Interval reasoning the code generator uses to pick 32-bit arithmetic (compiler/plan/gpu_plan.h).
#include <doctest/doctest.h>

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

TEST_CASE("value bounds: signs, scales and what stays unknown") {
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
  // No statistics, a division, or a DOUBLE: unknown.
  CHECK_FALSE(value_bounds(*make_column_ref(1, i), stats).known);
  CHECK_FALSE(
      value_bounds(*arith(kDiv, i, make_column_ref(0, i), make_column_ref(0, i)), stats).known);
  CHECK_FALSE(value_bounds(*make_column_ref(0, Type::double_()), stats).known);
}

}  // namespace tally
