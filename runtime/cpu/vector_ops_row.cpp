// The operators every expression can fall back on: scan columns, constants, and a node run
// per row by the row evaluator.
#include <fmt/format.h>

#include "runtime/cpu/vector_ops.h"

namespace tally::vec {

RowEval::RowEval(const Expr& e, const VecEnv& env, std::vector<const VecOp*> children)
    : children_(std::move(children)), args_(children_.size()) {
  auto node = std::make_shared<Expr>(e);
  for (size_t k = 0; k < node->children.size(); ++k) {
    types_.push_back(node->children[k]->type);
    node->children[k] = make_column_ref(static_cast<int>(k), types_.back());
  }
  shallow_ = std::move(node);
  ctx_.columns = args_.data();
  ctx_.parameters = env.parameters->data();
  ctx_.parameter_count = env.parameters->size();
  ctx_.strings = env.strings;
}

Value RowEval::at(uint32_t r) {
  for (size_t k = 0; k < children_.size(); ++k) args_[k] = children_[k]->out().value(r, types_[k]);
  return evaluate(*shallow_, ctx_);
}

void RowEval::raise(uint32_t r) {
  at(r);
  throw Error(
      ErrorKind::Internal,
      fmt::format("the vector path saw an error in {} that the row evaluator does not raise",
                  expr_to_string(*shallow_)));
}

namespace {

std::vector<const VecOp*> raw(const std::vector<VecOpPtr>& ops) {
  std::vector<const VecOp*> out;
  for (const auto& op : ops) out.push_back(op.get());
  return out;
}

}  // namespace

NodeOp::NodeOp(const Expr& e, const VecEnv& env, std::vector<VecOpPtr> children)
    : expr_(e),
      children_(std::move(children)),
      vec_(vector_phys(e, env)),
      row_(e, env, raw(children_)) {
  out_ = &vec_;
}

bool NodeOp::propagate_nulls(const Sel& sel) {
  bool any = false;
  for (const auto& c : children_) any |= c->out().has_nulls;
  out_->has_nulls = any;
  if (!any) return false;
  for_rows(sel, [&](uint32_t r) {
    uint8_t n = 0;
    for (const auto& c : children_) n |= c->out().is_null(r);
    out_->null[r] = n;
  });
  return true;
}

namespace {

// A scan column of the batch, decoded by the scan: nothing to compute.
class ColumnOp : public VecOp {
 public:
  explicit ColumnOp(Vec* column) { out_ = column; }
  void eval(const Sel&) override {}
};

// A string column's dictionary codes as ids in the query's string heap.
class StringIdsOp : public VecOp {
 public:
  StringIdsOp(const Vec* codes, const std::vector<int64_t>* ids) : codes_(codes), ids_(ids) {
    out_ = &vec_;
  }
  void eval(const Sel& sel) override {
    vec_.has_nulls = codes_->has_nulls;
    const int64_t* ids = ids_->data();
    for_rows(sel, [&](uint32_t r) {
      vec_.null[r] = codes_->null[r];
      vec_.i[r] = codes_->is_null(r) ? 0 : ids[codes_->i[r]];
    });
  }

 private:
  const Vec* codes_;
  const std::vector<int64_t>* ids_;
  Vec vec_;
};

// A constant (or a parameter's value) written once over the whole batch.
class ConstantOp : public VecOp {
 public:
  ConstantOp(const Value& v, const Type& type, Phys phys) : vec_(phys) {
    vec_.has_nulls = v.null;
    for (size_t r = 0; r < kBatchRows; ++r) {
      vec_.null[r] = v.null;
      if (!v.null) vec_.store(r, v, type);
    }
    out_ = &vec_;
  }
  void eval(const Sel&) override {}

 private:
  Vec vec_;
};

class RowOp : public NodeOp {
 public:
  using NodeOp::NodeOp;
  void eval(const Sel& sel) override {
    eval_children(sel);
    vec_.has_nulls = false;
    for_rows(sel, [&](uint32_t r) {
      Value v = row_.at(r);
      vec_.null[r] = v.null;
      vec_.has_nulls |= v.null;
      if (!v.null) vec_.store(r, v, expr_.type);
    });
  }
};

}  // namespace

VecOpPtr column_op(const Expr& e, const VecEnv& env) {
  Vec* column = &(*env.columns)[static_cast<size_t>(e.index)];
  if (!e.type.is_string()) return std::make_unique<ColumnOp>(column);
  return std::make_unique<StringIdsOp>(column, &(*env.code_to_id)[static_cast<size_t>(e.index)]);
}

VecOpPtr constant_op(const Value& v, const Type& type, Phys phys) {
  return std::make_unique<ConstantOp>(v, type, phys);
}

VecOpPtr row_op(const Expr& e, const VecEnv& env, std::vector<VecOpPtr> children) {
  return std::make_unique<RowOp>(e, env, std::move(children));
}

}  // namespace tally::vec
