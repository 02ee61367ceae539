#include "compiler/ir/key_conditions.h"

#include <vector>

namespace tally {

namespace {

void conjuncts(const ExprPtr& e, std::vector<ExprPtr>& out) {
  if (e->kind != ExprKind::And) {
    out.push_back(e);
    return;
  }
  for (const ExprPtr& c : e->children) conjuncts(c, out);
}

// Whether `e` reads group keys (at least one, each compared exactly by its rows' values)
// and nothing the aggregation computes.
bool reads_keys_only(const Expr& e, const BoundSelect& query, bool& any_key) {
  switch (e.kind) {
    case ExprKind::AggregateRef:
    case ExprKind::Grouping:
    case ExprKind::GroupingSetId:
    case ExprKind::ColumnRef:  // none above the aggregation; refuse rather than guess
      return false;
    case ExprKind::GroupKeyRef: {
      const Type& t = query.group_keys.at(static_cast<size_t>(e.index))->type;
      any_key = true;
      return !t.is_float() && !t.is_interval();
    }
    default:
      break;
  }
  for (const ExprPtr& c : e.children) {
    if (!reads_keys_only(*c, query, any_key)) return false;
  }
  return true;
}

ExprPtr conjunction(std::vector<ExprPtr> terms) {
  if (terms.empty()) return nullptr;
  if (terms.size() == 1) return terms[0];
  return make_node(ExprKind::And, Type::boolean(), std::move(terms));
}

}  // namespace

void move_key_conditions_to_where(BoundSelect& query) {
  if (!query.having || query.group_keys.empty() || !query.grouping_sets.empty()) return;
  std::vector<ExprPtr> terms;
  conjuncts(query.having, terms);
  std::vector<ExprPtr> where, having;
  if (query.filter) where.push_back(query.filter);
  // Only the terms before the first one that stays: AND is lazy, so a later term (10 / k)
  // is evaluated for a group only where the earlier ones (SUM(x) > 0) were not false, and
  // as a filter it could raise an error the HAVING never reached.
  for (const ExprPtr& t : terms) {
    bool any_key = false;
    if (having.empty() && reads_keys_only(*t, query, any_key) && any_key) {
      where.push_back(with_keys_over_rows(t, query));
    } else {
      having.push_back(t);
    }
  }
  if (having.size() == terms.size()) return;
  query.filter = conjunction(std::move(where));
  query.having = conjunction(std::move(having));
}

ExprPtr with_keys_over_rows(const ExprPtr& e, const BoundSelect& query,
                            const std::function<bool(const Expr& key)>& replace) {
  if (e->kind == ExprKind::GroupKeyRef) {
    const ExprPtr& key = query.group_keys.at(static_cast<size_t>(e->index));
    if (!replace || replace(*key)) return key;
  }
  if (e->children.empty()) return e;
  auto copy = std::make_shared<Expr>(*e);
  for (ExprPtr& c : copy->children) c = with_keys_over_rows(c, query, replace);
  return copy;
}

}  // namespace tally
