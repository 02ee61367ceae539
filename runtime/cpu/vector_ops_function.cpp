// Typed loops for the scalar functions that are hot in GROUP BY and aggregate arguments:
// DOUBLE math (SQRT, LN, LOG10, EXP, POWER, FLOOR/CEIL/TRUNC, SIGN), FLOOR/CEIL/TRUNC of an
// integer (itself), date_trunc and EXTRACT. A row outside a function's domain goes to the
// row evaluator, which raises the row path's error; every other function runs per row.
#include <cmath>

#include "runtime/cpu/vector_ops.h"
#include "templates/tally_date_parts.cuh"

namespace tally::vec {

namespace {

// The row evaluator's domain errors (compiler/eval/math_functions.cpp) for one row.
bool out_of_domain(int fn, double x, double y) {
  switch (fn) {
    case kSqrt:
      return x < 0;
    case kLn:
    case kLog10:
      return x <= 0;
    case kPower:
      return (x == 0 && y < 0) || (x < 0 && std::isfinite(y) && std::floor(y) != y);
    default:
      return false;
  }
}

template <int Fn>
double apply(double x, double y) {
  if constexpr (Fn == kSqrt) return std::sqrt(x);
  if constexpr (Fn == kLn) return std::log(x);
  if constexpr (Fn == kLog10) return std::log10(x);
  if constexpr (Fn == kExp) return std::exp(x);
  if constexpr (Fn == kPower) return std::pow(x, y);
  if constexpr (Fn == kFloor) return std::floor(x);
  if constexpr (Fn == kCeil) return std::ceil(x);
  if constexpr (Fn == kTrunc) return std::trunc(x);
  if constexpr (Fn == kSign) return x > 0 ? 1.0 : (x < 0 ? -1.0 : x);
  return y;
}

class DoubleFunctionOp : public NodeOp {
 public:
  using NodeOp::NodeOp;

  void eval(const Sel& sel) override {
    eval_children(sel);
    switch (expr_.op) {
      case kSqrt:
        return run<kSqrt>(sel);
      case kLn:
        return run<kLn>(sel);
      case kLog10:
        return run<kLog10>(sel);
      case kExp:
        return run<kExp>(sel);
      case kPower:
        return run<kPower>(sel);
      case kFloor:
        return run<kFloor>(sel);
      case kCeil:
        return run<kCeil>(sel);
      case kTrunc:
        return run<kTrunc>(sel);
      default:
        return run<kSign>(sel);
    }
  }

 private:
  template <int Fn>
  void run(const Sel& sel) {
    const bool nulls = propagate_nulls(sel);
    const double* a = arg(0).f.data();
    const double* b = children_.size() > 1 ? arg(1).f.data() : a;
    double* o = vec_.f.data();
    const uint8_t* null = vec_.null.data();
    bool bad = false;
    for_rows(sel, [&](uint32_t r) {
      o[r] = apply<Fn>(a[r], b[r]);
      bad |= out_of_domain(Fn, a[r], b[r]) && !(nulls && null[r]);
    });
    if (bad) raise_first(sel, [&](uint32_t r) { return out_of_domain(Fn, a[r], b[r]); });
  }
};

// date_trunc (digits: the unit) of a DATE or TIMESTAMP, or EXTRACT (op: the field) of
// those or a TIME.
class DateOp : public NodeOp {
 public:
  using NodeOp::NodeOp;

  void eval(const Sel& sel) override {
    eval_children(sel);
    const bool nulls = propagate_nulls(sel);
    const int64_t* a = arg(0).i.data();
    int64_t* o = vec_.i.data();
    const uint8_t* null = vec_.null.data();
    const bool stamps = expr_.children[0]->type.is_timestamp();
    if (expr_.kind == ExprKind::Extract) {
      const int field = expr_.op;
      if (stamps) {
        return for_rows(sel, [&](uint32_t r) { o[r] = tally_dates::timestamp_field(a[r], field); });
      }
      if (expr_.children[0]->type.id == TypeId::Time) {
        return for_rows(sel, [&](uint32_t r) { o[r] = tally_dates::time_field(a[r], field); });
      }
      return for_rows(sel, [&](uint32_t r) { o[r] = tally_dates::date_field(a[r], field); });
    }
    const int unit = expr_.digits;
    if (stamps) {  // inside the TIMESTAMP range nothing can overflow
      return for_rows(sel, [&](uint32_t r) { o[r] = tally_dates::timestamp_trunc(a[r], unit); });
    }
    bool bad = false;
    for_rows(sel, [&](uint32_t r) {
      o[r] = tally_dates::date_trunc_days(a[r], unit);
      bad |= o[r] < INT32_MIN && !(nulls && null[r]);
    });
    if (bad) {
      raise_first(sel,
                  [&](uint32_t r) { return tally_dates::date_trunc_days(a[r], unit) < INT32_MIN; });
    }
  }
};

bool double_function(int fn) {
  switch (fn) {
    case kSqrt:
    case kLn:
    case kLog10:
    case kExp:
    case kPower:
    case kFloor:
    case kCeil:
    case kTrunc:
    case kSign:
      return true;
    default:
      return false;
  }
}

}  // namespace

VecOpPtr function_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children) {
  if (e.kind == ExprKind::Extract || (e.kind == ExprKind::Function && e.op == kDateTrunc)) {
    return std::make_unique<DateOp>(e, env, std::move(children));
  }
  const bool rounding = e.op == kFloor || e.op == kCeil || e.op == kTrunc;
  if (rounding && e.type.is_integer() && e.digits >= 0) return std::move(children[0]);
  if (e.type.id == TypeId::Double && double_function(e.op) && (!rounding || e.digits == 0)) {
    return std::make_unique<DoubleFunctionOp>(e, env, std::move(children));
  }
  return nullptr;
}

}  // namespace tally::vec
