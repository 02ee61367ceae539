// The batch operators behind compile_vector (runtime/cpu/vector_expr.h), one factory per
// family. A factory returns null where it has no typed loop for the node; the compiler then
// uses row_op, which runs the row evaluator per row.
#pragma once

#include <vector>

#include "compiler/eval/evaluator.h"
#include "runtime/cpu/vector_expr.h"

namespace tally::vec {

// One node evaluated per row by the row evaluator over its children's batch values.
class RowEval {
 public:
  RowEval(const Expr& e, const VecEnv& env, std::vector<const VecOp*> children);
  Value at(uint32_t r);
  // Row r is one a typed loop found would raise: the row evaluator raises the row path's
  // error (an Internal error if, against the loop, it does not).
  [[noreturn]] void raise(uint32_t r);

 private:
  ExprPtr shallow_;  // the node, its children replaced by references to args_
  std::vector<const VecOp*> children_;
  std::vector<Type> types_;
  std::vector<Value> args_;
  EvalContext ctx_;
};

// An operator with children, its output and the row evaluator of its node for errors.
class NodeOp : public VecOp {
 public:
  NodeOp(const Expr& e, const VecEnv& env, std::vector<VecOpPtr> children);

 protected:
  const Vec& arg(size_t k) const { return children_[k]->out(); }
  void eval_children(const Sel& sel) {
    for (auto& c : children_) c->eval(sel);
  }
  // NULL where any argument is NULL; true if some row is.
  bool propagate_nulls(const Sel& sel);
  // Raises the error of the first row of `sel` for which bad(row) holds.
  template <typename Bad>
  [[noreturn]] void raise_first(const Sel& sel, Bad&& bad) {
    for (size_t k = 0; k < sel.n; ++k) {
      if (!out_->is_null(sel[k]) && bad(sel[k])) row_.raise(sel[k]);
    }
    row_.raise(sel[0]);  // not reached: the caller saw a bad row
  }

  const Expr& expr_;
  std::vector<VecOpPtr> children_;
  Vec vec_;
  RowEval row_;
};

// A DECIMAL's scale; 0 for every other type.
inline int decimal_scale(const Expr& e) { return e.type.is_decimal() ? e.type.scale : 0; }

// 10^digits when the values of `e` times it are proven to stay within 64 bits, else 0.
int64_t proven_factor(const Expr& e, int digits, const VecEnv& env);

VecOpPtr column_op(const Expr& e, const VecEnv& env);
VecOpPtr constant_op(const Value& v, const Type& type, Phys phys);
VecOpPtr row_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr> children);

// Typed families; null when the node needs row_op.
VecOpPtr arith_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children);
VecOpPtr cast_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children);
VecOpPtr compare_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children);
VecOpPtr logic_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children);
// Scalar functions (ExprKind::Function) and EXTRACT: vector_ops_function.cpp.
VecOpPtr function_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr>& children);

}  // namespace tally::vec
