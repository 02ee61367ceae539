// Arithmetic in generated expressions: exact DECIMAL (64-bit where the statistics bound it),
// checked integers, floats; and the casts, signs, rounding and dates over them.
#include <fmt/format.h>

#include "compiler/codegen/cuda_expr.h"
#include "compiler/codegen/cuda_expr_internal.h"
#include "compiler/plan/value_bounds.h"

namespace tally {

using namespace cuda_text;

namespace {

// 10^k modulo 2^bits, as an unsigned literal of that width.
std::string pow10_modulo(int k, int bits) {
  unsigned __int128 p = 1;
  for (int i = 0; i < k; ++i) p *= 10;
  return bits == 32 ? fmt::format("{}u", static_cast<uint32_t>(p))
                    : fmt::format("{}ull", static_cast<uint64_t>(p));
}

}  // namespace

// a * 10^ka +/- b * 10^kb into e's value. A result the statistics bound below 2^31 (2^63)
// is computed in 32-bit (64-bit) unsigned arithmetic: modulo 2^n every step agrees with the
// exact one, and the exact result fits, so its low n bits, sign-extended, are the result.
// In 128 bits the compiler keeps carries between words that are always zero.
std::string CudaExprEmitter::scaled_add(const Expr& e, long double magnitude, const std::string& r,
                                        const std::string& a, int ka, const std::string& b,
                                        int kb) const {
  const char* op = e.op == kAdd ? "+" : "-";
  if (magnitude < 63) {
    const int bits = magnitude < 31 ? 32 : 64;
    const char* word = bits == 32 ? "u32" : "u64";
    return fmt::format("  {} = (i64)({})(({}){} * {} {} ({}){} * {});\n", r,
                       bits == 32 ? "i32" : "i64", word, a, pow10_modulo(ka, bits), op, word, b,
                       pow10_modulo(kb, bits));
  }
  return fmt::format("  {} = {} * pow10_i128({}) {} {} * pow10_i128({});\n", r, a, ka, op, b, kb);
}

namespace {

// The largest magnitude of SQL integer type `t` (its overflow error past it).
long double type_limit(const Type& t) {
  switch (t.id) {
    case TypeId::SmallInt:
      return 32767;
    case TypeId::Integer:
    case TypeId::Date:
      return 0x1p31L - 1;
    default:
      return 0x1p62L;
  }
}

// The narrowest machine integer ("i32", "i64") that holds both operands and the result of
// integer arithmetic `e` by the statistics, or null when they do not bound the result inside
// its SQL type (whose overflow is an error to raise) and below 2^62.
const char* machine_int_of(const Expr& e, const std::vector<ColumnStats>& stats) {
  const ValueBounds result = value_bounds(e, stats);
  const long double limit = type_limit(e.type);
  if (!result.known || result.lo < -limit || result.hi > limit) return nullptr;
  const char* widest = "i32";
  for (const Expr* x : {&e, e.children[0].get(), e.children[1].get()}) {
    const ValueBounds b = value_bounds(*x, stats);
    if (!b.known || b.lo < -0x1p62L || b.hi > 0x1p62L) return nullptr;
    if (b.lo < -0x1p31L + 1 || b.hi > 0x1p31L - 1) widest = "i64";
  }
  return widest;
}

}  // namespace

CudaOperand CudaExprEmitter::emit_arith(const Expr& e, std::string& out) {
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand b = emit(*e.children[1], out);
  CudaOperand r = declare(e, out);
  out += fmt::format("{} = {} || {};\nif (!{}) {{\n", r.null, a.null, b.null, r.null);
  const Type& ta = e.children[0]->type;
  const Type& tb = e.children[1]->type;
  static const char* kOps[] = {"+", "-", "*", "/", "%"};
  if (e.type.is_decimal()) {
    int s = e.type.scale, sa = ta.scale, sb = tb.scale;
    // Operands below 10^p each: where the exact result's digits fit 38, no check is needed.
    // Or where the statistics bound the result below 2^126 < 10^38.
    const long double magnitude = magnitude_log2(e, stats_);
    bool bounded = magnitude < 126;
    bool add_fits = std::max(ta.precision - sa, tb.precision - sb) + s + 1 <= 38 || bounded;
    bool mul_fits = ta.precision + tb.precision <= 38 || bounded;
    if ((e.op == kAdd || e.op == kSub) && add_fits) {
      out += scaled_add(e, magnitude, r.value, a.value, s - sa, b.value, s - sb) + "}\n";
      return r;
    }
    if (e.op == kMul && mul_fits) {
      // Factors in [0, 2^32) multiply as one unsigned 32 x 32 -> 64-bit instruction
      // (IMAD.WIDE.U32); signed ones below 2^31 as a signed one plus a sign fix-up; wider
      // ones take three.
      auto unsigned32 = [&](const Expr& x) {
        ValueBounds v = value_bounds(x, stats_);
        return v.known && v.lo >= 0 && v.hi < 4294967296.0L;
      };
      bool narrow = magnitude_log2(*e.children[0], stats_) < 31 &&
                    magnitude_log2(*e.children[1], stats_) < 31;
      if (unsigned32(*e.children[0]) && unsigned32(*e.children[1])) {
        out += fmt::format("  {} = (i64)((u64)(u32){} * (u64)(u32){});\n}}\n", r.value, a.value,
                           b.value);
      } else if (narrow) {
        out += fmt::format("  {} = (i64)(i32){} * (i64)(i32){};\n}}\n", r.value, a.value, b.value);
      } else if (magnitude >= 63) {
        // The product may pass 64 bits though each factor is held in 64: multiply in 128
        // (found by tally-fuzz: DECIMAL(10,2) * INTEGER wrapped around).
        out += fmt::format("  {} = (i128){} * (i128){};\n}}\n", r.value, a.value, b.value);
      } else {
        out += fmt::format("  {} = {} * {};\n}}\n", r.value, a.value, b.value);
      }
      return r;
    }
    // The operands at the result's scale, in the if-block of this result alone.
    SymbolTable::Scope aligned(symbols_);
    const std::string lhs = symbols_.fresh("lhs"), rhs = symbols_.fresh("rhs");
    switch (e.op) {
      case kAdd:
      case kSub:
        out += fmt::format(
            "  const i128 {6} = upscale_checked({0}, {1}, status), {7} = upscale_checked({2}, "
            "{3}, status);\n"
            "  {4} = add_digits_checked({6}, {5}{7}, status);\n",
            a.value, s - sa, b.value, s - sb, r.value, e.op == kSub ? "-" : "", lhs, rhs);
        break;
      case kMul:
        out += fmt::format("  {} = mul_checked({}, {}, status);\n", r.value, a.value, b.value);
        break;
      case kDiv:
        out += fmt::format(
            "  if (!is_zero_divisor({1} == 0, status)) {0} = div_round_i128(upscale_checked({2}, "
            "{3}, status), {1});\n",
            r.value, b.value, a.value, s - sa + sb);
        break;
      default:
        out += fmt::format(
            "  const i128 {5} = upscale_checked({0}, {1}, status), {6} = upscale_checked({2}, "
            "{3}, status);\n"
            "  if (!is_zero_divisor({6} == 0, status)) {4} = {5} % {6};\n",
            a.value, s - sa, b.value, s - sb, r.value, lhs, rhs);
    }
  } else if (e.type.is_hugeint()) {
    // Both operands are HUGEINTs (the binder casts the other side), checked over int128.
    static const char* kHugeOps[] = {"add_hugeint", "sub_hugeint", "mul_hugeint", "div_hugeint",
                                     "mod_hugeint"};
    const std::string call =
        fmt::format("{} = {}({}, {}, status);\n", r.value, kHugeOps[e.op], a.value, b.value);
    out += e.op == kDiv || e.op == kMod
               ? fmt::format("  if (!is_zero_divisor({} == 0, status)) {}", b.value, call)
               : "  " + call;
  } else if (e.type.is_float()) {
    if (e.op == kDiv || e.op == kMod) {
      out += fmt::format("  if (!is_zero_divisor({} == 0.0, status)) {} = {};\n", b.value, r.value,
                         e.op == kDiv ? fmt::format("{} / {}", a.value, b.value)
                                      : fmt::format("fmod({}, {})", a.value, b.value));
    } else {
      out += fmt::format("  {} = {} {} {};\n", r.value, a.value, kOps[e.op], b.value);
    }
  } else if (const char* narrow = machine_int_of(e, stats_)) {
    // The statistics bound the operands and the result: no overflow to check, and the
    // machine's own width (32-bit division is several times cheaper than 64-bit).
    const std::string expr =
        fmt::format("({0}){1} {2} ({0}){3}", narrow, a.value, kOps[e.op], b.value);
    if (e.op == kDiv || e.op == kMod) {
      out += fmt::format("  if (!is_zero_divisor({} == 0, status)) {} = {};\n", b.value, r.value,
                         expr);
    } else {
      out += fmt::format("  {} = {};\n", r.value, expr);
    }
  } else {
    auto [lo, hi] = int_range(e.type);
    std::string expr = fmt::format("(i128){} {} (i128){}", a.value, kOps[e.op], b.value);
    if (e.op == kDiv || e.op == kMod) {
      out += fmt::format(
          "  if (!is_zero_divisor({} == 0, status)) {} = check_int({}, {}, {}, status);\n", b.value,
          r.value, expr, lo, hi);
    } else {
      out += fmt::format("  {} = check_int({}, {}, {}, status);\n", r.value, expr, lo, hi);
    }
  }
  out += "}\n";
  return r;
}

CudaOperand CudaExprEmitter::emit_cast(const Expr& e, std::string& out) {
  const Type& from = e.children[0]->type;
  const Type& to = e.type;
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand r = declare(e, out);
  out += fmt::format("{} = {};\nif (!{}) {{\n", r.null, a.null, r.null);
  std::string v = a.value, code;
  bool from_int = from.is_integer() || from.id == TypeId::Boolean || from.id == TypeId::Date;
  const bool time_of_day = from.id == TypeId::Time || to.id == TypeId::Time;
  if (from.is_timestamp() && to.is_timestamp()) {
    code = v;  // the same micros: the session zone is UTC
  } else if (from.is_timestamp() && to.id == TypeId::Time) {
    code = fmt::format(
        "{0} - tally_dates::floor_div({0}, tally_dates::kMicrosPerDayTs) * "
        "tally_dates::kMicrosPerDayTs",
        v);
  } else if (from.is_timestamp() && to.id == TypeId::Date) {
    code = fmt::format("tally_dates::floor_div({}, tally_dates::kMicrosPerDayTs)", v);
  } else if (from.id == TypeId::Date && to.is_timestamp()) {
    // 0001-01-01 ... 9999-12-31, as compiler/common/timestamp.cpp's timestamp_from_date.
    code = fmt::format(
        "({0} < -719162 || {0} > 2932896) ? (raise_status(status, kStatusTimestampOutOfRange), "
        "(i64)0) : (i64){0} * tally_dates::kMicrosPerDayTs",
        v);
  } else if (from.is_timestamp() || to.is_timestamp() || time_of_day) {
    code.clear();  // strings and numbers: unsupported below
  } else if (to.id == TypeId::Boolean) {
    code = fmt::format("{} != 0", v);
  } else if (to.is_hugeint()) {
    // Integers widen; a DECIMAL (below 10^38) rounds to its integer. DOUBLE runs on the CPU.
    if (from_int || from.is_hugeint()) code = fmt::format("(i128){}", v);
    if (from.is_decimal()) code = fmt::format("downscale_round((i128){}, {})", v, from.scale);
  } else if (to.is_integer() || to.id == TypeId::Date) {
    auto [lo, hi] = int_range(to);
    if (from.is_decimal()) {
      code =
          fmt::format("check_int(downscale_round({}, {}), {}, {}, status)", v, from.scale, lo, hi);
    } else if (from.is_float()) {
      code = fmt::format(
          "({0} != {0} || rint({0}) < -9.2233720368547758e18 || rint({0}) >= "
          "9.2233720368547758e18) ? check_int((i128)kI64Max + 1, {1}, {2}, status) : "
          "check_int((i128)(i64)rint({0}), {1}, {2}, status)",
          v, lo, hi);
    } else {
      code = fmt::format("check_int((i128){}, {}, {}, status)", v, lo, hi);
    }
  } else if (to.is_float()) {
    std::string d = from.is_decimal() ? fmt::format("((f64){} / 1e{})", v, from.scale)
                                      : fmt::format("(f64){}", v);
    code = to.id == TypeId::Real ? fmt::format("(f64)(f32){}", d) : d;
  } else if (to.is_decimal()) {
    if (from.is_decimal()) {
      code = to.scale >= from.scale
                 ? fmt::format("check_digits(upscale_checked({}, {}, status), {}, status)", v,
                               to.scale - from.scale, to.precision)
                 : fmt::format("check_digits(downscale_round({}, {}), {}, status)", v,
                               from.scale - to.scale, to.precision);
    } else if (from.is_float()) {
      code = fmt::format(
          "(fabs(round({0} * 1e{1})) >= 1e{2} || {0} != {0}) ? check_digits(pow10_i128(38), 1, "
          "status) : (i128)round({0} * 1e{1})",
          v, to.scale, to.precision);
    } else if (from_int || from.is_hugeint()) {
      code = fmt::format("check_digits(upscale_checked((i128){}, {}, status), {}, status)", v,
                         to.scale, to.precision);
    }
  }
  if (code.empty())
    unsupported_on_gpu(fmt::format("CAST from {} to {}", from.to_string(), to.to_string()));
  out += fmt::format("  {} = {};\n}}\n", r.value, code);
  return r;
}

CudaOperand CudaExprEmitter::emit_unary(const Expr& e, std::string& out) {
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand r = declare(e, out);
  bool negate = e.kind == ExprKind::Negate;
  std::string code;
  if (e.type.is_decimal()) {
    code = negate ? "-" + a.value : fmt::format("abs_i128({})", a.value);
  } else if (e.type.is_hugeint()) {
    code = negate ? fmt::format("neg_hugeint({}, status)", a.value)
                  : fmt::format("({0} < 0 ? neg_hugeint({0}, status) : {0})", a.value);
  } else if (e.type.is_float()) {
    code = negate ? "-" + a.value : fmt::format("fabs({})", a.value);
  } else {
    auto [lo, hi] = int_range(e.type);
    code = fmt::format("check_int({}(i128){}, {}, {}, status)", negate ? "-" : "", a.value, lo, hi);
    if (!negate)
      code = fmt::format("check_int(({0} < 0 ? -(i128){0} : (i128){0}), {1}, {2}, status)", a.value,
                         lo, hi);
  }
  out += fmt::format("{} = {};\nif (!{}) {} = {};\n", r.null, a.null, r.null, r.value, code);
  return r;
}

CudaOperand CudaExprEmitter::emit_round(const Expr& e, std::string& out) {
  const Type& from = e.children[0]->type;
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand r = declare(e, out);
  int n = e.digits;
  std::string code;
  if (from.is_decimal()) {
    int sa = from.scale;
    if (n >= sa) {
      code = fmt::format("upscale_checked({}, {}, status)", a.value, e.type.scale - sa);
    } else if (n >= 0) {
      code = fmt::format("downscale_round({}, {})", a.value, sa - n);
    } else {
      code = fmt::format("mul_checked(downscale_round({}, {}), pow10_i128({}), status)", a.value,
                         sa - n, std::min(-n, 38));
    }
  } else if (from.is_float()) {
    code = n > 300 ? a.value
                   : fmt::format("(isfinite({0}) ? round({0} * {1}) / {1} : {0})", a.value,
                                 f64_literal(std::pow(10.0, n)));
  } else if (n >= 0) {
    code = a.value;
  } else if (from.is_hugeint()) {
    unsupported_on_gpu(fmt::format("ROUND of a HUGEINT to tens or more (\"{}\")", e.text));
  } else {
    auto [lo, hi] = int_range(e.type);
    code = fmt::format(
        "check_int(div_round_i128((i128){0}, pow10_i128({1})) * pow10_i128({1}), {2}, {3}, status)",
        a.value, std::min(-n, 38), lo, hi);
  }
  out += fmt::format("{} = {};\nif (!{}) {} = {};\n", r.null, a.null, r.null, r.value, code);
  return r;
}

CudaOperand CudaExprEmitter::emit_date(const Expr& e, std::string& out) {
  CudaOperand a = emit(*e.children[0], out);
  CudaOperand r = declare(e, out);
  std::string code;
  const bool stamps = e.children[0]->type.is_timestamp();
  if (e.kind == ExprKind::DateAdd && e.type.id != TypeId::Date) {
    unsupported_on_gpu(fmt::format("{} +/- INTERVAL of a column (\"{}\")",
                                   e.children[0]->type.to_string(), e.text));
  } else if (e.kind == ExprKind::Extract && stamps) {
    code = fmt::format("tally_dates::timestamp_field({}, {})", a.value, e.op);
  } else if (e.kind == ExprKind::Extract && e.children[0]->type.id == TypeId::Time) {
    code = fmt::format("tally_dates::time_field({}, {})", a.value, e.op);
  } else if (e.kind == ExprKind::Extract && e.op <= kDay) {
    static const char* kFields[] = {"year", "month", "day"};
    code = fmt::format("(i64)civil_from_days({}).{}", a.value, kFields[e.op]);
  } else if (e.kind == ExprKind::Extract) {  // the fields beyond YEAR/MONTH/DAY
    code = fmt::format("tally_dates::date_field({}, {})", a.value, e.op);
  } else {
    std::string shifted =
        e.months ? fmt::format("add_months({}, {})", a.value, i64_literal(e.months)) : a.value;
    code = fmt::format("check_int((i128){} + {}, (i64)kI32Min, (i64)kI32Max, status)", shifted,
                       i64_literal(e.days));
  }
  out += fmt::format("{} = {};\nif (!{}) {} = {};\n", r.null, a.null, r.null, r.value, code);
  return r;
}

}  // namespace tally
