// Typed loops for the casts the binder inserts most: integer to integer, integer or DECIMAL
// to a DECIMAL of equal or larger scale (64-bit where proven), integer or DECIMAL to DOUBLE.
// Other casts (to REAL, rounding, strings, dates) run per row through the row evaluator.
#include <cmath>

#include "compiler/common/decimal.h"
#include "runtime/cpu/vector_ops.h"

namespace tally::vec {

namespace {

bool integer_like(const Type& t) { return t.is_integer() || t.id == TypeId::Boolean; }

// Integer to integer (factor 1, the target type's range: from_integer's check), and integer
// or DECIMAL to a DECIMAL of larger scale, 64-bit proven (the factor, the target precision's
// range: decimal_checked's check).
class ScaleOp : public NodeOp {
 public:
  ScaleOp(const Expr& e, const VecEnv& env, std::vector<VecOpPtr> children, int64_t factor,
          int64_t lo, int64_t hi)
      : NodeOp(e, env, std::move(children)), factor_(factor), lo_(lo), hi_(hi) {}

  void eval(const Sel& sel) override {
    eval_children(sel);
    const bool nulls = propagate_nulls(sel);
    const int64_t* a = arg(0).i.data();
    int64_t* o = vec_.i.data();
    const uint8_t* null = vec_.null.data();
    const int64_t f = factor_, lo = lo_, hi = hi_;
    bool bad = false;
    for_rows(sel, [&](uint32_t r) {
      // Wrapping product: rows under NULL may hold anything; others are proven to fit.
      o[r] = static_cast<int64_t>(static_cast<uint64_t>(a[r]) * static_cast<uint64_t>(f));
      bad |= (o[r] < lo || o[r] > hi) && !(nulls && null[r]);
    });
    if (bad) raise_first(sel, [&](uint32_t r) { return o[r] < lo || o[r] > hi; });
  }

 private:
  int64_t factor_, lo_, hi_;
};

// Integer or 64-bit DECIMAL to DOUBLE: one rounding to double, then the division by 10^scale
// (from_decimal's two operations; an int64 converts as its int128 does).
class ToDoubleOp : public NodeOp {
 public:
  ToDoubleOp(const Expr& e, const VecEnv& env, std::vector<VecOpPtr> children, int scale)
      : NodeOp(e, env, std::move(children)), divisor_(std::pow(10.0, scale)), scale_(scale) {}

  void eval(const Sel& sel) override {
    eval_children(sel);
    propagate_nulls(sel);
    const int64_t* a = arg(0).i.data();
    double* o = vec_.f.data();
    if (scale_ == 0 && !expr_.children[0]->type.is_decimal()) {
      for_rows(sel, [&](uint32_t r) { o[r] = static_cast<double>(a[r]); });
      return;
    }
    const double d = divisor_;
    for_rows(sel, [&](uint32_t r) { o[r] = static_cast<double>(a[r]) / d; });
  }

 private:
  double divisor_;
  int scale_;
};

void target_range(const Type& t, int64_t& lo, int64_t& hi) {
  lo = t.id == TypeId::SmallInt ? INT16_MIN : t.id == TypeId::Integer ? INT32_MIN : INT64_MIN;
  hi = t.id == TypeId::SmallInt ? INT16_MAX : t.id == TypeId::Integer ? INT32_MAX : INT64_MAX;
}

}  // namespace

VecOpPtr cast_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children) {
  const Type& from = e.children[0]->type;
  const Type& to = e.type;
  const bool from64 = vector_phys(*e.children[0], env) == Phys::I64;
  if (integer_like(from) && to.is_integer()) {
    int64_t lo, hi;
    target_range(to, lo, hi);
    return std::make_unique<ScaleOp>(e, env, std::move(children), 1, lo, hi);
  }
  const bool exact_from = from.is_integer() || from.is_decimal();
  if (exact_from && from64 && to.id == TypeId::Double) {
    return std::make_unique<ToDoubleOp>(e, env, std::move(children), from.scale);
  }
  if (exact_from && from64 && to.is_decimal() && vector_phys(e, env) == Phys::I64 &&
      to.scale >= from.scale && to.scale - from.scale <= 18) {
    const auto factor = static_cast<int64_t>(pow10_128(to.scale - from.scale));
    // Values within 64 bits are below 10^19: only precisions up to 18 can refuse one.
    const int64_t limit =
        to.precision <= 18 ? static_cast<int64_t>(pow10_128(to.precision)) - 1 : INT64_MAX;
    return std::make_unique<ScaleOp>(e, env, std::move(children), factor, -limit, limit);
  }
  return nullptr;
}

}  // namespace tally::vec
