#include "compiler/parse/ast_walk.h"

namespace tally::ast {

namespace {

void walk_tree(const Expr& root, const std::function<void(const Expr&)>& fn) {
  std::vector<const Expr*> pending{&root};
  while (!pending.empty()) {
    const Expr* e = pending.back();
    pending.pop_back();
    fn(*e);
    for (auto it = e->children.rbegin(); it != e->children.rend(); ++it) {
      if (*it) pending.push_back(it->get());
    }
    if (e->else_expr) pending.push_back(e->else_expr.get());
    if (e->case_operand) pending.push_back(e->case_operand.get());
  }
}

// The queries nested in `select` directly: WITH queries and the FROM item's.
std::vector<const SelectStmt*> nested_queries(const SelectStmt& select) {
  std::vector<const SelectStmt*> queries;
  for (const auto& cte : select.with) queries.push_back(cte.query.get());
  if (select.from) {
    if (select.from->subquery) queries.push_back(select.from->subquery.get());
    if (const auto& op = select.from->set_operation) {
      queries.push_back(op->left.get());
      queries.push_back(op->right.get());
    }
  }
  return queries;
}

}  // namespace

void for_each_level_expression(const SelectStmt& select,
                               const std::function<void(const Expr&)>& fn) {
  auto visit = [&](const ExprPtr& e) {
    if (e) walk_tree(*e, fn);
  };
  for (const auto& item : select.items) visit(item.expr);
  visit(select.where);
  for (const auto& key : select.group_by) visit(key);
  visit(select.having);
  for (const auto& item : select.order_by) visit(item.expr);
  visit(select.limit);
  visit(select.offset);
}

void for_each_expression(const SelectStmt& select, const std::function<void(const Expr&)>& fn) {
  std::vector<const SelectStmt*> pending{&select};
  while (!pending.empty()) {
    const SelectStmt* level = pending.back();
    pending.pop_back();
    for_each_level_expression(*level, [&](const Expr& e) {
      fn(e);
      if (e.subquery) pending.push_back(e.subquery.get());
    });
    if (level->from) {
      for (const auto& row : level->from->values) {
        for (const auto& item : row) walk_tree(*item, fn);
      }
      for (const auto& argument : level->from->series_arguments) walk_tree(*argument, fn);
    }
    for (const SelectStmt* nested : nested_queries(*level)) pending.push_back(nested);
  }
}

std::vector<const Expr*> subquery_expressions(const SelectStmt& select) {
  std::vector<const Expr*> found;
  for_each_level_expression(select, [&](const Expr& e) {
    if (e.subquery) found.push_back(&e);
  });
  return found;
}

bool uses_query_forms(const SelectStmt& select) {
  if (!select.with.empty()) return true;
  if (select.from && select.from->derived != DerivedKind::None) return true;
  return !subquery_expressions(select).empty();
}

}  // namespace tally::ast
