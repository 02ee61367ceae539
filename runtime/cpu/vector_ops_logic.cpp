// AND, OR, NOT, IS NULL, CASE and COALESCE over batches. AND, OR, CASE and COALESCE
// evaluate each child only on the rows the row evaluator would evaluate it on (AND stops at
// a false, OR at a true, CASE at the first true WHEN, COALESCE at the first non-NULL), so a
// guarded division raises exactly where the row path raises.
#include "runtime/cpu/vector_ops.h"

namespace tally::vec {

namespace {

// AND (Stop = 0: a false decides) and OR (Stop = 1: a true decides), three-valued.
template <int Stop>
class ConnectiveOp : public NodeOp {
 public:
  using NodeOp::NodeOp;

  void eval(const Sel& sel) override {
    int64_t* o = vec_.i.data();
    uint8_t* null = vec_.null.data();
    for_rows(sel, [&](uint32_t r) {
      o[r] = 1 - Stop;
      null[r] = 0;
    });
    Sel undecided = sel;
    SelBuffer* next = &buffers_[0];
    for (auto& child : children_) {
      if (undecided.n == 0) break;
      child->eval(undecided);
      const Vec& c = child->out();
      next->n = 0;
      for_rows(undecided, [&](uint32_t r) {
        if (c.is_null(r)) {
          null[r] = 1;
          next->push(r);
        } else if ((c.i[r] != 0) == Stop) {
          o[r] = Stop;  // decided, whatever NULL came before
          null[r] = 0;
        } else {
          next->push(r);
        }
      });
      undecided = next->sel();
      next = next == &buffers_[0] ? &buffers_[1] : &buffers_[0];
    }
    vec_.has_nulls = false;
    for_rows(sel, [&](uint32_t r) { vec_.has_nulls |= null[r] != 0; });
  }

 private:
  SelBuffer buffers_[2];
};

class NotOp : public NodeOp {
 public:
  using NodeOp::NodeOp;
  void eval(const Sel& sel) override {
    eval_children(sel);
    propagate_nulls(sel);
    const int64_t* a = arg(0).i.data();
    int64_t* o = vec_.i.data();
    for_rows(sel, [&](uint32_t r) { o[r] = a[r] == 0; });
  }
};

class IsNullOp : public NodeOp {
 public:
  using NodeOp::NodeOp;
  void eval(const Sel& sel) override {
    eval_children(sel);
    const Vec& a = arg(0);
    const int64_t want = expr_.negated ? 0 : 1;
    int64_t* o = vec_.i.data();
    vec_.has_nulls = false;
    for_rows(sel, [&](uint32_t r) { o[r] = a.is_null(r) == want; });
  }
};

// CASE and COALESCE: each row takes its value from one child, the first that claims it.
class BranchOp : public NodeOp {
 public:
  using NodeOp::NodeOp;

 protected:
  // Splits `rows` into those `claims` holds for (taken_) and the rest (returned).
  template <typename Claims>
  Sel split(const Sel& rows, Claims&& claims) {
    SelBuffer& rest = rest_[flip_ ^= 1];
    taken_.n = rest.n = 0;
    for_rows(rows, [&](uint32_t r) {
      if (claims(r)) {
        taken_.push(r);
      } else {
        rest.push(r);
      }
    });
    return rest.sel();
  }

  // Evaluates `value` on `rows` and copies its rows out.
  void take(VecOp& value, const Sel& rows) {
    if (rows.n == 0) return;
    value.eval(rows);
    for_rows(rows, [&](uint32_t r) { vec_.copy_row(r, value.out()); });
  }

  SelBuffer taken_;

 private:
  SelBuffer rest_[2];
  int flip_ = 0;
};

// CASE WHEN c0 THEN v0 ... ELSE e: each WHEN on the rows no earlier WHEN took, each THEN
// on the rows its WHEN took.
class CaseOp : public BranchOp {
 public:
  using BranchOp::BranchOp;
  void eval(const Sel& sel) override {
    vec_.has_nulls = false;
    Sel remaining = sel;
    const size_t pairs = (children_.size() - 1) / 2;
    for (size_t p = 0; p < pairs && remaining.n > 0; ++p) {
      VecOp& when = *children_[2 * p];
      when.eval(remaining);
      const Vec& w = when.out();
      remaining = split(remaining, [&](uint32_t r) { return !w.is_null(r) && w.i[r] != 0; });
      take(*children_[2 * p + 1], taken_.sel());
    }
    take(*children_.back(), remaining);
  }
};

// COALESCE: each argument on the rows every earlier one left NULL.
class CoalesceOp : public BranchOp {
 public:
  using BranchOp::BranchOp;
  void eval(const Sel& sel) override {
    vec_.has_nulls = false;
    Sel remaining = sel;
    for (auto& child : children_) {
      if (remaining.n == 0) break;
      child->eval(remaining);
      const Vec& v = child->out();
      remaining = split(remaining, [&](uint32_t r) { return !v.is_null(r); });
      for_rows(taken_.sel(), [&](uint32_t r) { vec_.copy_row(r, v); });
    }
    for_rows(remaining, [&](uint32_t r) { vec_.null[r] = 1; });
    vec_.has_nulls = vec_.has_nulls || remaining.n > 0;
  }
};

}  // namespace

VecOpPtr logic_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children) {
  switch (e.kind) {
    case ExprKind::And:
      return std::make_unique<ConnectiveOp<0>>(e, env, std::move(children));
    case ExprKind::Or:
      return std::make_unique<ConnectiveOp<1>>(e, env, std::move(children));
    case ExprKind::Not:
      return std::make_unique<NotOp>(e, env, std::move(children));
    case ExprKind::IsNull:
      return std::make_unique<IsNullOp>(e, env, std::move(children));
    case ExprKind::Case:
      return std::make_unique<CaseOp>(e, env, std::move(children));
    case ExprKind::Coalesce:
      return std::make_unique<CoalesceOp>(e, env, std::move(children));
    default:
      return nullptr;
  }
}

}  // namespace tally::vec
