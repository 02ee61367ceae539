// Typed loops for comparisons: 64-bit integers, DATEs, BOOLEANs and DECIMALs (scales
// aligned where the aligned values are proven to fit 64 bits), 128-bit DECIMALs of one
// scale, DOUBLEs (NaN above every number and equal to itself, as compare_values orders
// them), string equality on interned ids, and string order by bytes (once per row through
// the heap under one lock a batch: the row path took 245 ns a row).
#include <cmath>

#include "runtime/cpu/vector_ops.h"

namespace tally::vec {

namespace {

template <int Op, typename T>
inline int64_t holds(T a, T b) {
  if constexpr (Op == kEq) return a == b;
  if constexpr (Op == kNe) return a != b;
  if constexpr (Op == kLt) return a < b;
  if constexpr (Op == kLe) return a <= b;
  if constexpr (Op == kGt) return a > b;
  return a >= b;
}

inline int compare_doubles(double a, double b) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

enum class Kind { Int, Wide, Double, String };

class CompareOp : public NodeOp {
 public:
  CompareOp(const Expr& e, const VecEnv& env, std::vector<VecOpPtr> children, Kind kind, int64_t ma,
            int64_t mb)
      : NodeOp(e, env, std::move(children)), kind_(kind), ma_(ma), mb_(mb), strings_(env.strings) {}

  void eval(const Sel& sel) override {
    eval_children(sel);
    propagate_nulls(sel);
    switch (expr_.op) {
      case kEq:
        return run<kEq>(sel);
      case kNe:
        return run<kNe>(sel);
      case kLt:
        return run<kLt>(sel);
      case kLe:
        return run<kLe>(sel);
      case kGt:
        return run<kGt>(sel);
      default:
        return run<kGe>(sel);
    }
  }

 private:
  template <int Op>
  void run(const Sel& sel) {
    int64_t* o = vec_.i.data();
    if (kind_ == Kind::String) {
      const int64_t* a = arg(0).i.data();
      const int64_t* b = arg(1).i.data();
      strings_->read_many([&](const auto& get) {
        for_rows(sel, [&](uint32_t r) {
          if (vec_.is_null(r)) return;  // its ids may be anything
          o[r] = holds<Op>(a[r] == b[r] ? 0 : get(a[r]).compare(get(b[r])), 0);
        });
      });
    } else if (kind_ == Kind::Double) {
      const double* a = arg(0).f.data();
      const double* b = arg(1).f.data();
      for_rows(sel, [&](uint32_t r) { o[r] = holds<Op>(compare_doubles(a[r], b[r]), 0); });
    } else if (kind_ == Kind::Wide) {
      const int128* a = arg(0).w.data();
      const int128* b = arg(1).w.data();
      for_rows(sel, [&](uint32_t r) { o[r] = holds<Op>(a[r], b[r]); });
    } else if (ma_ == 1 && mb_ == 1) {
      const int64_t* a = arg(0).i.data();
      const int64_t* b = arg(1).i.data();
      for_rows(sel, [&](uint32_t r) { o[r] = holds<Op>(a[r], b[r]); });
    } else {
      const int64_t* a = arg(0).i.data();
      const int64_t* b = arg(1).i.data();
      const int64_t ma = ma_, mb = mb_;
      // Wrapping products: rows under NULL may hold anything (their result is not read).
      auto scaled = [](int64_t v, int64_t m) {
        return static_cast<int64_t>(static_cast<uint64_t>(v) * static_cast<uint64_t>(m));
      };
      for_rows(sel, [&](uint32_t r) { o[r] = holds<Op>(scaled(a[r], ma), scaled(b[r], mb)); });
    }
  }

  Kind kind_;
  int64_t ma_, mb_;
  const StringHeap* strings_;
};

}  // namespace

VecOpPtr compare_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children) {
  const Expr& a = *e.children[0];
  const Expr& b = *e.children[1];
  const Phys pa = vector_phys(a, env), pb = vector_phys(b, env);
  if (a.type.is_string() && e.op != kEq && e.op != kNe) {
    if (pa != Phys::I64 || pb != Phys::I64 || env.strings == nullptr) return nullptr;
    return std::make_unique<CompareOp>(e, env, std::move(children), Kind::String, 1, 1);
  }
  if (pa == Phys::F64 && pb == Phys::F64) {
    return std::make_unique<CompareOp>(e, env, std::move(children), Kind::Double, 1, 1);
  }
  const int sa = decimal_scale(a), sb = decimal_scale(b);
  if (pa == Phys::I128 && pb == Phys::I128 && sa == sb) {
    return std::make_unique<CompareOp>(e, env, std::move(children), Kind::Wide, 1, 1);
  }
  if (pa != Phys::I64 || pb != Phys::I64) return nullptr;
  const int s = std::max(sa, sb);
  const int64_t ma = proven_factor(a, s - sa, env), mb = proven_factor(b, s - sb, env);
  if (ma == 0 || mb == 0) return nullptr;
  return std::make_unique<CompareOp>(e, env, std::move(children), Kind::Int, ma, mb);
}

}  // namespace tally::vec
