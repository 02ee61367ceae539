// Scalar functions (ExprKind::Function) in generated expressions, as device code that gives
// the CPU evaluator's results (compiler/eval/math_functions.cpp): FLOOR/CEIL/TRUNC, SIGN,
// SQRT/LN/LOG/EXP/POWER with PostgreSQL's domain errors as status bits, GREATEST/LEAST and
// date_trunc. String functions never get here: a string function of one dictionary column
// is a host-computed lookup (cuda_expr_lookups.cpp), and any other is refused before.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "compiler/codegen/cuda_expr.h"
#include "compiler/codegen/cuda_expr_internal.h"

namespace tally {

using namespace cuda_text;

const char* cuda_text::function_value_hint(int fn) {
  switch (fn) {
    case kFloor:
      return "floored";
    case kCeil:
      return "ceiled";
    case kTrunc:
      return "truncated";
    case kSqrt:
      return "root";
    case kPower:
      return "powered";
    case kLn:
    case kLog10:
    case kLogBase:
      return "logarithm";
    case kExp:
      return "exponential";
    case kSign:
      return "signum";
    case kGreatest:
      return "greatest_value";
    case kLeast:
      return "least_value";
    case kDateTrunc:
      return "truncated_date";
    default:
      return "function_value";
  }
}

namespace {

// v / 10^by toward minus infinity (FLOOR), plus infinity (CEIL) or zero (TRUNC), in i128.
std::string drop_digits(const std::string& v, int by, int fn) {
  if (by > 38) {  // |v| < 10^38: the quotient is 0, or -1 / 1 after a floor / ceil
    if (fn == kFloor) return fmt::format("((i128){} < 0 ? (i128)-1 : (i128)0)", v);
    if (fn == kCeil) return fmt::format("((i128){} > 0 ? (i128)1 : (i128)0)", v);
    return "(i128)0";
  }
  const std::string q = fmt::format("((i128){} / pow10_i128({}))", v, by);
  const std::string rem = fmt::format("((i128){} % pow10_i128({}))", v, by);
  if (fn == kFloor) return fmt::format("({} - ({} < 0 ? 1 : 0))", q, rem);
  if (fn == kCeil) return fmt::format("({} + ({} > 0 ? 1 : 0))", q, rem);
  return q;
}

}  // namespace

std::string CudaExprEmitter::rounding_code(const Expr& e, const std::string& a) const {
  const int n = e.digits;
  if (e.type.is_decimal()) {
    const int sa = e.children[0]->type.scale;
    if (n >= sa) return fmt::format("upscale_checked({}, {}, status)", a, e.type.scale - sa);
    const std::string q = drop_digits(a, sa - n, e.op);
    if (n >= 0) return q;
    return fmt::format("mul_checked({}, pow10_i128({}), status)", q, std::min(-n, 38));
  }
  if (e.type.is_float()) {
    static const char* kNames[] = {"floor", "ceil", "trunc"};
    const char* f = kNames[e.op];
    if (n == 0) return fmt::format("{}({})", f, a);
    if (n > 300) return a;
    const std::string scale = f64_literal(std::pow(10.0, n));
    return fmt::format("(isfinite({0}) ? {1}({0} * {2}) / {2} : {0})", a, f, scale);
  }
  if (n >= 0) return a;
  if (n < -18) return "(i64)0";
  return fmt::format("({0} / {1}) * {1}", a,
                     i64_literal(static_cast<int64_t>(std::pow(10.0L, -n))));
}

std::string CudaExprEmitter::double_function_code(const Expr& e,
                                                  const std::vector<CudaOperand>& args,
                                                  const std::string& r) const {
  const std::string& x = args[0].value;
  // A value outside the function's domain raises the bit; the row's result is not used.
  auto logarithm_checks = [](const std::string& v) {
    return fmt::format(
        "if ({0} == 0.0) raise_status(status, kStatusLogZero);\n"
        "  else if ({0} < 0.0) raise_status(status, kStatusLogNegative);\n  ",
        v);
  };
  switch (e.op) {
    case kSqrt:
      return fmt::format(
          "if ({0} < 0.0) raise_status(status, kStatusSqrtNegative);\n  else {1} = sqrt({0});\n", x,
          r);
    case kLn:
      return logarithm_checks(x) + fmt::format("else {} = log({});\n", r, x);
    case kLog10:
      return logarithm_checks(x) + fmt::format("else {} = log10({});\n", r, x);
    case kLogBase:
      return logarithm_checks(x) + logarithm_checks(args[1].value) +
             fmt::format(
                 "else if (!is_zero_divisor(log({0}) == 0.0, status)) {2} = log({1}) / log({0});\n",
                 x, args[1].value, r);
    case kExp:
      return fmt::format("{} = exp({});\n", r, x);
    default:
      return fmt::format(
          "if ({0} == 0.0 && {1} < 0.0) raise_status(status, kStatusZeroToNegativePower);\n"
          "  else if ({0} < 0.0 && isfinite({1}) && floor({1}) != {1}) raise_status(status, "
          "kStatusComplexPower);\n"
          "  else {2} = pow({0}, {1});\n",
          x, args[1].value, r);
  }
}

// GREATEST/LEAST skip NULLs: NULL only when every argument is.
CudaOperand CudaExprEmitter::emit_extremum(const Expr& e, std::string& out) {
  std::vector<CudaOperand> args;
  for (const auto& c : e.children) args.push_back(emit(*c, out));
  CudaOperand r = declare(e, out);
  out += fmt::format("{} = true;\n", r.null);
  const char* better = e.op == kGreatest ? ">" : "<";
  for (size_t i = 0; i < args.size(); ++i) {
    const Type& t = e.children[i]->type;
    out += fmt::format("if (!{0} && ({1} || {2} {3} 0)) {{ {4} = {5}; {1} = false; }}\n",
                       args[i].null, r.null, compare_expr(t, args[i].value, t, r.value), better,
                       r.value, args[i].value);
  }
  return r;
}

CudaOperand CudaExprEmitter::emit_function(const Expr& e, std::string& out) {
  if (e.op == kGreatest || e.op == kLeast) return emit_extremum(e, out);
  const bool numeric = e.op <= kSign || e.op == kDateTrunc;
  if (!numeric || e.type.is_string())
    unsupported_on_gpu(fmt::format("the expression \"{}\"", e.text));
  std::vector<CudaOperand> args;
  for (const auto& c : e.children) args.push_back(emit(*c, out));
  CudaOperand r = declare(e, out);
  std::string any_null = args[0].null;
  for (size_t i = 1; i < args.size(); ++i) any_null += " || " + args[i].null;
  out += fmt::format("{} = {};\nif (!{}) {{\n  ", r.null, any_null, r.null);
  const std::string& a = args[0].value;
  switch (e.op) {
    case kFloor:
    case kCeil:
    case kTrunc:
      out += fmt::format("{} = {};\n", r.value, rounding_code(e, a));
      break;
    case kSign:
      out += e.type.is_float()
                 ? fmt::format("{0} = {1} > 0.0 ? 1.0 : ({1} < 0.0 ? -1.0 : {1});\n", r.value, a)
                 : fmt::format("{} = ({} > 0) - ({} < 0);\n", r.value, a, a);
      break;
    case kDateTrunc:
      // A TIMESTAMP truncates inside its range (compiler/common/timestamp.h): no check.
      out += e.type.is_timestamp()
                 ? fmt::format("{} = tally_dates::timestamp_trunc({}, {});\n", r.value, a, e.digits)
                 : fmt::format(
                       "{} = check_int((i128)tally_dates::date_trunc_days({}, {}), "
                       "(i64)kI32Min, (i64)kI32Max, status);\n",
                       r.value, a, e.digits);
      break;
    default:
      out += double_function_code(e, args, r.value);
  }
  out += "}\n";
  return r;
}

}  // namespace tally
