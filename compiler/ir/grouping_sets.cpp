#include "compiler/ir/grouping_sets.h"

#include <fmt/format.h>

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

// Every output visible (the hidden ones are sort keys) and no DISTINCT, ORDER BY, LIMIT or
// OFFSET: the caller finishes the union of the sets' rows.
void without_row_finish(BoundSelect& q) {
  q.visible_outputs = q.outputs.size();
  q.distinct_outputs = false;
  q.distinct_on.clear();
  q.order_by.clear();
  q.limit.reset();
  q.limit_parameter = -1;
  q.offset = 0;
  q.offset_parameter = -1;
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
  without_row_finish(set);
  return set;
}

// A GroupKeyRef or AggregateRef.
ExprPtr reference(ExprKind kind, const Type& type, size_t index) {
  auto ref = std::make_shared<Expr>();
  ref->kind = kind;
  ref->type = type;
  ref->index = static_cast<int>(index);
  return ref;
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

bool is_one_pass_grouping_query(const BoundSelect& query) {
  return !query.group_keys.empty() && query.group_keys.back()->kind == ExprKind::GroupingSetId;
}

BoundSelect one_pass_grouping_query(const BoundSelect& query) {
  BoundSelect one = query;
  one.group_keys.push_back(make_node(ExprKind::GroupingSetId, Type::integer(), {}));
  one.outputs.clear();
  for (size_t k = 0; k < one.group_keys.size(); ++k) {
    one.outputs.push_back(
        {fmt::format("key{}", k), reference(ExprKind::GroupKeyRef, one.group_keys[k]->type, k)});
  }
  for (size_t a = 0; a < one.aggregates.size(); ++a) {
    one.outputs.push_back(
        {fmt::format("agg{}", a), reference(ExprKind::AggregateRef, one.aggregates[a].type, a)});
  }
  one.having.reset();
  without_row_finish(one);
  return one;
}

std::vector<SetGroups> one_pass_set_groups(const BoundSelect& query,
                                           const std::vector<std::vector<Value>>& rows) {
  const size_t keys = query.group_keys.size();
  std::vector<SetGroups> sets(query.grouping_sets.size());
  for (const auto& row : rows) {
    const Value& id = row[keys];
    if (id.null || id.i < 0 || static_cast<size_t>(id.i) >= sets.size()) {
      throw Error(ErrorKind::Internal, "a one-pass group has no grouping set");
    }
    const uint64_t mask = query.grouping_sets[static_cast<size_t>(id.i)];
    SetGroups& set = sets[static_cast<size_t>(id.i)];
    std::vector<Value>& set_keys = set.keys.emplace_back();
    for (size_t k = 0; k < keys; ++k) {
      if ((mask >> k) & 1) set_keys.push_back(row[k]);
    }
    set.aggregates.emplace_back(row.begin() + static_cast<std::ptrdiff_t>(keys + 1), row.end());
  }
  return sets;
}

std::vector<BoundSelect> split_grouping_sets(const BoundSelect& query) {
  std::vector<BoundSelect> sets;
  for (uint64_t mask : query.grouping_sets) sets.push_back(one_set(query, mask));
  return sets;
}

}  // namespace tally
