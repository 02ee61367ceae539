// Typed loops for arithmetic: integers (checked against the result type's range), DECIMALs
// whose operands and result value_bounds proves fit 64 bits (no check can fire), DOUBLE.
#include <cmath>

#include "runtime/cpu/vector_ops.h"

namespace tally::vec {

namespace {

// Wrapping arithmetic: rows under NULL hold arbitrary values, whose overflow must not be UB.
inline int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrap_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t wrap_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// The range check_integer_range applies to a result of this type.
void integer_range(const Type& t, int64_t& lo, int64_t& hi) {
  switch (t.id) {
    case TypeId::SmallInt:
      lo = INT16_MIN, hi = INT16_MAX;
      return;
    case TypeId::Integer:
    case TypeId::Date:
      lo = INT32_MIN, hi = INT32_MAX;
      return;
    default:
      lo = INT64_MIN, hi = INT64_MAX;
  }
}

class IntArithOp : public NodeOp {
 public:
  IntArithOp(const Expr& e, const VecEnv& env, std::vector<VecOpPtr> children)
      : NodeOp(e, env, std::move(children)) {
    integer_range(e.type, lo_, hi_);
  }

  void eval(const Sel& sel) override {
    eval_children(sel);
    switch (expr_.op) {
      case kAdd:
        return run<kAdd>(sel);
      case kSub:
        return run<kSub>(sel);
      case kMul:
        return run<kMul>(sel);
      case kDiv:
        return run<kDiv>(sel);
      default:
        return run<kMod>(sel);
    }
  }

 private:
  template <int Op>
  void run(const Sel& sel) {
    const bool nulls = propagate_nulls(sel);
    const int64_t* a = arg(0).i.data();
    const int64_t* b = arg(1).i.data();
    int64_t* o = vec_.i.data();
    const uint8_t* null = vec_.null.data();
    const int128 lo = lo_, hi = hi_;
    bool bad = false;
    // In 128 bits nothing overflows; a result outside the type, or a zero divisor, is an
    // error on a non-NULL row.
    auto bad_at = [&](uint32_t r, int128& v) {
      const int128 x = a[r], y = b[r];
      bool zero = false;
      if constexpr (Op == kAdd) v = x + y;
      if constexpr (Op == kSub) v = x - y;
      if constexpr (Op == kMul) v = x * y;
      if constexpr (Op == kDiv || Op == kMod) {
        zero = y == 0;
        v = Op == kDiv ? x / (zero ? 1 : y) : x % (zero ? 1 : y);
      }
      return zero || v < lo || v > hi;
    };
    for_rows(sel, [&](uint32_t r) {
      int128 v;
      const bool wrong = bad_at(r, v);
      o[r] = static_cast<int64_t>(v);
      bad |= wrong && !(nulls && null[r]);
    });
    if (bad) {
      raise_first(sel, [&](uint32_t r) {
        int128 v;
        return bad_at(r, v);
      });
    }
  }

  int64_t lo_ = 0, hi_ = 0;
};

// DECIMAL + - * with every operand and the result proven to fit 64 bits: the row path's
// 38-digit checks cannot fire.
class DecimalArithOp : public NodeOp {
 public:
  DecimalArithOp(const Expr& e, const VecEnv& env, std::vector<VecOpPtr> children, int64_t ma,
                 int64_t mb)
      : NodeOp(e, env, std::move(children)), ma_(ma), mb_(mb) {}

  void eval(const Sel& sel) override {
    eval_children(sel);
    propagate_nulls(sel);
    const int64_t* a = arg(0).i.data();
    const int64_t* b = arg(1).i.data();
    int64_t* o = vec_.i.data();
    const int64_t ma = ma_, mb = mb_;
    switch (expr_.op) {
      case kAdd:
        for_rows(sel, [&](uint32_t r) { o[r] = wrap_add(wrap_mul(a[r], ma), wrap_mul(b[r], mb)); });
        return;
      case kSub:
        for_rows(sel, [&](uint32_t r) { o[r] = wrap_sub(wrap_mul(a[r], ma), wrap_mul(b[r], mb)); });
        return;
      default:
        for_rows(sel, [&](uint32_t r) { o[r] = wrap_mul(a[r], b[r]); });
        return;
    }
  }

 private:
  int64_t ma_, mb_;
};

class DoubleArithOp : public NodeOp {
 public:
  using NodeOp::NodeOp;

  void eval(const Sel& sel) override {
    eval_children(sel);
    const bool nulls = propagate_nulls(sel);
    const double* a = arg(0).f.data();
    const double* b = arg(1).f.data();
    double* o = vec_.f.data();
    const uint8_t* null = vec_.null.data();
    bool bad = false;
    switch (expr_.op) {
      case kAdd:
        return for_rows(sel, [&](uint32_t r) { o[r] = a[r] + b[r]; });
      case kSub:
        return for_rows(sel, [&](uint32_t r) { o[r] = a[r] - b[r]; });
      case kMul:
        return for_rows(sel, [&](uint32_t r) { o[r] = a[r] * b[r]; });
      case kDiv:
        for_rows(sel, [&](uint32_t r) {
          o[r] = a[r] / b[r];
          bad |= b[r] == 0 && !(nulls && null[r]);
        });
        break;
      default:
        for_rows(sel, [&](uint32_t r) {
          o[r] = std::fmod(a[r], b[r]);
          bad |= b[r] == 0 && !(nulls && null[r]);
        });
        break;
    }
    if (bad) raise_first(sel, [&](uint32_t r) { return b[r] == 0; });
  }
};

VecOpPtr decimal_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children) {
  const Expr& a = *e.children[0];
  const Expr& b = *e.children[1];
  const bool all64 = vector_phys(e, env) == Phys::I64 && vector_phys(a, env) == Phys::I64 &&
                     vector_phys(b, env) == Phys::I64;
  if (!all64) return nullptr;
  const int s = decimal_scale(e);
  if (e.op == kMul && s == decimal_scale(a) + decimal_scale(b)) {
    return std::make_unique<DecimalArithOp>(e, env, std::move(children), 1, 1);
  }
  if (e.op != kAdd && e.op != kSub) return nullptr;
  const int64_t ma = proven_factor(a, s - decimal_scale(a), env);
  const int64_t mb = proven_factor(b, s - decimal_scale(b), env);
  if (ma == 0 || mb == 0) return nullptr;
  return std::make_unique<DecimalArithOp>(e, env, std::move(children), ma, mb);
}

}  // namespace

VecOpPtr arith_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children) {
  if (e.type.is_decimal()) return decimal_op(e, env, children);
  if (e.type.is_hugeint()) return nullptr;  // the row evaluator's checked int128 arithmetic
  if (e.type.is_float()) return std::make_unique<DoubleArithOp>(e, env, std::move(children));
  // Integers, and DATE +/- INTEGER days, DATE - DATE = INTEGER days (all I64).
  return std::make_unique<IntArithOp>(e, env, std::move(children));
}

}  // namespace tally::vec
