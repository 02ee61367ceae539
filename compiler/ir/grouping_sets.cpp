#include "compiler/ir/grouping_sets.h"

namespace tally {

namespace {

// `e` over one set's keys: `new_index[k]` is key k's place in the set, or -1 (NULL).
ExprPtr over_set(const ExprPtr& e, const std::vector<int>& new_index, uint64_t mask) {
  if (e->kind == ExprKind::GroupKeyRef) {
    const int k = new_index[static_cast<size_t>(e->index)];
    if (k < 0) return make_null_constant(e->type);
    auto ref = std::make_shared<Expr>(*e);
    ref->index = k;
    return ref;
  }
  if (e->kind == ExprKind::Grouping) {
    return make_constant(Value::from_int(grouping_value(*e, mask)), e->type, e->text);
  }
  std::shared_ptr<Expr> copy;
  for (size_t i = 0; i < e->children.size(); ++i) {
    ExprPtr child = over_set(e->children[i], new_index, mask);
    if (child == e->children[i]) continue;
    if (!copy) copy = std::make_shared<Expr>(*e);
    copy->children[i] = child;
  }
  return copy ? copy : e;
}

BoundSelect one_set(const BoundSelect& query, uint64_t mask) {
  BoundSelect set = query;
  set.grouping_sets.clear();
  set.group_keys.clear();
  std::vector<int> new_index(query.group_keys.size(), -1);
  for (size_t k = 0; k < query.group_keys.size(); ++k) {
    if (!((mask >> k) & 1)) continue;
    new_index[k] = static_cast<int>(set.group_keys.size());
    set.group_keys.push_back(query.group_keys[k]);
  }
  for (auto& o : set.outputs) o.expr = over_set(o.expr, new_index, mask);
  if (set.having) set.having = over_set(set.having, new_index, mask);
  set.visible_outputs = set.outputs.size();
  set.distinct_outputs = false;
  set.distinct_on.clear();
  set.order_by.clear();
  set.limit.reset();
  set.limit_parameter = -1;
  set.offset = 0;
  set.offset_parameter = -1;
  return set;
}

}  // namespace

int64_t grouping_value(const Expr& grouping, uint64_t mask) {
  int64_t value = 0;
  for (const auto& key : grouping.children) {
    const bool grouped = (mask >> key->index) & 1;
    value = value * 2 + (grouped ? 0 : 1);
  }
  return value;
}

std::vector<BoundSelect> split_grouping_sets(const BoundSelect& query) {
  std::vector<BoundSelect> sets;
  for (uint64_t mask : query.grouping_sets) sets.push_back(one_set(query, mask));
  return sets;
}

}  // namespace tally
