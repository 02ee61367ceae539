// The interpreted tier's DOUBLE and REAL values (compiler/codegen/row_program_float.h): a
// register holds a double's bits, and each operation is the CPU engine's own
// (compiler/eval/arith.cpp, cast.cpp): one IEEE operation per instruction, so a row's value is
// the CPU's to the bit. REAL values are doubles rounded to float where a cast or a column
// makes them. Host C++ reads the same functions (tests/unit/support/row_program_host.h).
#pragma once

#include "tally_double_bits.cuh"
#include "tally_host_device.cuh"

#if !defined(__CUDACC_RTC__) && !defined(__CUDACC__)
#include <cmath>
#endif

namespace tally_interp {

typedef long long i64;

// kOpFloat's operations (Instr::sub).
enum FloatOp : int {
  kFloatAdd,
  kFloatSub,
  kFloatMul,
  kFloatDiv,  // a divisor of 0 is a row fault (tally_interp.cuh divides_by_zero)
  kFloatMod,  // fmod; a divisor of 0 as kFloatDiv's
  kFloatNeg,
  kFloatAbs,
  kFloatRound,     // round(x * imm) / imm where x is finite (ROUND to digits, imm = 10^digits)
  kFloatOfInt,     // the integer x over imm (a DECIMAL's 10^scale, else 1)
  kFloatToReal,    // rounded to float (a cast to REAL)
  kFloatCanonical  // one set key a value: -0.0 as 0.0, every NaN as one (a DISTINCT's value)
};

// The MIN and MAX fields' identities: NaN sorts above every number (cmp_float), so MIN starts
// there, MAX at -Infinity (compiler/functions/aggregate_table.cpp's kMinF64, kMaxF64).
constexpr i64 kFloatMinIdentity = 0x7FF8000000000000ll;
constexpr i64 kFloatMaxIdentity = (i64)0xFFF0000000000000ull;

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
TALLY_HD double float_remainder(double a, double b) { return fmod(a, b); }
TALLY_HD double float_rounded(double a) { return round(a); }
#else
inline double float_remainder(double a, double b) { return std::fmod(a, b); }
inline double float_rounded(double a) { return std::round(a); }
#endif

TALLY_HD double float_of(i64 bits) { return tally_bits::double_of_bits(bits); }
TALLY_HD i64 float_bits(double d) { return tally_bits::double_bits(d); }

// Three-way comparison in SQL's order: NaN above every number and equal to itself
// (compiler/common/value_ops.cpp's compare_doubles; tally_sql.cuh's cmp_f64).
TALLY_HD int cmp_float(double a, double b) {
  const bool na = a != a, nb = b != b;
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

// kOpFloat: operation `op` of the doubles whose bits are x and y (kFloatOfInt: x an integer).
TALLY_HD i64 float_op(int op, i64 x, i64 y, i64 imm) {
  const double a = float_of(x), b = float_of(y), k = float_of(imm);
  switch (op) {
    case kFloatAdd:
      return float_bits(a + b);
    case kFloatSub:
      return float_bits(a - b);
    case kFloatMul:
      return float_bits(a * b);
    case kFloatDiv:
      return float_bits(a / b);
    case kFloatMod:
      return float_bits(float_remainder(a, b));
    case kFloatNeg:
      return float_bits(-a);
    case kFloatAbs:
      return x & 0x7FFFFFFFFFFFFFFFll;  // fabs: the sign bit cleared
    case kFloatRound:
      return a - a == 0 ? float_bits(float_rounded(a * k) / k) : x;  // finite: a - a is 0
    case kFloatOfInt:
      return float_bits((double)x / k);
    case kFloatCanonical:  // runtime/cpu/agg_state.cpp's distinct_key
      return a == 0 ? 0 : (a != a ? 0x7FF8000000000000ll : x);
    default:
      return float_bits((double)(float)a);
  }
}

}  // namespace tally_interp
