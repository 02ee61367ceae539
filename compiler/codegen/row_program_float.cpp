#include "compiler/codegen/row_program_float.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>

#include "templates/tally_interp.cuh"

namespace tally {

int64_t float_register_bits(double d) { return std::bit_cast<int64_t>(d); }

namespace {

// Integers past 2^53 round differently to a REAL through a double (the interpreter) than
// straight from the integer (the CPU engine).
constexpr long double kExactInDouble = 9007199254740992.0L;

int float_instr(RowProgramEmitter& b, int op, int x, int y = -1, double k = 0) {
  return b.emit(tally_interp::kOpFloat, x, y, -1, float_register_bits(k), op);
}

// The register of `e`, which must be DOUBLE or REAL: the binder casts an operator's other
// operands to its floating type, and anything else is declined rather than misread.
int float_operand(RowProgramEmitter& b, const Expr& e) {
  if (!e.type.is_float()) {
    decline_row_program(fmt::format("{} is {} where a floating value is read", expr_to_string(e),
                                    e.type.to_string()));
  }
  return b.value(e);
}

// Whether `e` is never 0: a non-zero (or NULL) constant or parameter, or a cast of an integer
// or DECIMAL whose bounds leave 0 out.
bool never_zero(const RowProgramEmitter& b, const Expr& e) {
  const Value* v = e.kind == ExprKind::Constant ? &e.value : b.parameter(e);
  if (v != nullptr) return v->null || v->f != 0;
  if (e.kind != ExprKind::Cast) return false;
  const Expr& from = *e.children[0];
  if (!from.type.is_integer() && !from.type.is_decimal()) return false;
  const ValueBounds d = b.bounds(from);
  return d.known && (d.lo > 0 || d.hi < 0);
}

int arith(RowProgramEmitter& b, const Expr& e) {
  static constexpr int kOps[] = {tally_interp::kFloatAdd, tally_interp::kFloatSub,
                                 tally_interp::kFloatMul, tally_interp::kFloatDiv,
                                 tally_interp::kFloatMod};
  const Expr& divisor = *e.children[1];
  if ((e.op == kDiv || e.op == kMod) && !never_zero(b, divisor)) b.may_divide_by_zero();
  return float_instr(b, kOps[e.op], float_operand(b, *e.children[0]), float_operand(b, divisor));
}

// ROUND to `digits` places in double arithmetic, as compiler/eval/arith.cpp's eval_round.
int round(RowProgramEmitter& b, const Expr& e) {
  const int x = float_operand(b, *e.children[0]);
  if (e.digits > 300) return x;
  return float_instr(b, tally_interp::kFloatRound, x, -1, std::pow(10.0, e.digits));
}

// A cast to DOUBLE or REAL as compiler/eval/cast.cpp's: an integer's nearest double, a
// DECIMAL's unscaled value over 10^scale, a REAL the double rounded to float.
int cast(RowProgramEmitter& b, const Expr& e) {
  const Expr& from = *e.children[0];
  const Type& f = from.type;
  const bool to_real = e.type.id == TypeId::Real;
  int r = -1;
  if (f.is_float()) {
    r = b.value(from);
    if (!to_real || f.id == TypeId::Real) return r;
  } else if (f.is_decimal()) {
    r = float_instr(b, tally_interp::kFloatOfInt, b.value(from), -1, std::pow(10.0, f.scale));
  } else if (f.is_integer()) {
    const ValueBounds d = b.bounds(from);
    if (to_real && !(d.known && d.lo >= -kExactInDouble && d.hi <= kExactInDouble))
      decline_row_program(
          fmt::format("a cast to REAL of {}, which may pass 2^53", expr_to_string(from)));
    r = float_instr(b, tally_interp::kFloatOfInt, b.value(from), -1, 1.0);
  } else {
    decline_row_program(fmt::format("a cast from {} to {}", f.to_string(), e.type.to_string()));
  }
  return to_real ? float_instr(b, tally_interp::kFloatToReal, r) : r;
}

}  // namespace

bool is_float_operation(const Expr& e) {
  if (!e.type.is_float()) return false;
  switch (e.kind) {
    case ExprKind::Arith:
    case ExprKind::Negate:
    case ExprKind::Abs:
    case ExprKind::Round:
    case ExprKind::Cast:
      return true;
    default:
      return false;
  }
}

int float_operation(RowProgramEmitter& b, const Expr& e) {
  switch (e.kind) {
    case ExprKind::Arith:
      return arith(b, e);
    case ExprKind::Negate:
      return float_instr(b, tally_interp::kFloatNeg, float_operand(b, *e.children[0]));
    case ExprKind::Abs:
      return float_instr(b, tally_interp::kFloatAbs, float_operand(b, *e.children[0]));
    case ExprKind::Round:
      return round(b, e);
    default:
      return cast(b, e);
  }
}

int float_compare(RowProgramEmitter& b, int op, const Expr& x, const Expr& y) {
  const int rx = float_operand(b, x), ry = float_operand(b, y);
  return b.emit(tally_interp::kOpCompareFloat, rx, ry, -1, 0, op);
}

}  // namespace tally
