// DOUBLE and REAL expressions of the interpreter's row program (compiler/codegen/row_program.h):
// arithmetic, negation, ABS, ROUND and casts to them, each the CPU engine's one IEEE operation
// (templates/tally_interp_float.cuh), so a row's value matches the CPU engine's bit for bit and
// only the order of a SUM's additions differs. A division or remainder whose divisor may be 0
// is tracked row by row as the integer ones are (RowProgram::faults); a cast whose rounding the
// CPU does differently is declined.
#pragma once

#include <cstdint>

#include "compiler/codegen/row_program_emitter.h"
#include "compiler/ir/expr.h"

namespace tally {

// Whether the row program's builder takes `e` here: an arithmetic, unary, ROUND or cast
// expression of a floating type.
bool is_float_operation(const Expr& e);

// The register of such an expression's value.
int float_operation(RowProgramEmitter& b, const Expr& e);

// The register of `x <op> y` (compiler/ir/expr.h's CompareOp) where both are DOUBLE or REAL.
int float_compare(RowProgramEmitter& b, int op, const Expr& x, const Expr& y);

// A double's bits, as a register holds them.
int64_t float_register_bits(double d);

}  // namespace tally
