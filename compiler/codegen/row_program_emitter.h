// What the parts of the interpreter's row-program builder (compiler/codegen/row_program.cpp,
// row_program_float.cpp) share: the builder's interface they emit through, and how one of them
// declines a statement that is not the interpreter's.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/ir/expr.h"
#include "compiler/plan/value_bounds.h"

namespace tally {

// Thrown while a row program is built: the statement is not the interpreter's.
struct RowProgramDeclined {
  std::string why;
};

[[noreturn]] void decline_row_program(std::string why);

// What the builder's parts need of it: to emit, to read a value, its bounds and parameters.
class RowProgramEmitter {
 public:
  // A register holding instruction `op`'s result.
  virtual int emit(int op, int a, int b, int c, int64_t imm, int sub) = 0;
  // The register of `e`'s value (a DECIMAL unscaled).
  virtual int value(const Expr& e) = 0;
  virtual ValueBounds bounds(const Expr& e) const = 0;
  // The parameter's value where `e` is a `?` with one, else null.
  virtual const Value* parameter(const Expr& e) const = 0;
  // A division whose divisor may be 0 was emitted: the rows track the CPU engine's error.
  virtual void may_divide_by_zero() = 0;

 protected:
  ~RowProgramEmitter() = default;
};

}  // namespace tally
