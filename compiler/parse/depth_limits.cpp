#include "compiler/parse/depth_limits.h"

#include <algorithm>
#include <vector>

namespace tally {
namespace {

// The children of a node, in the order the worklist visits them.
template <typename Visit>
void for_each_child(ast::Expr& e, Visit visit) {
  for (ast::ExprPtr& child : e.children) visit(*child);
  if (e.case_operand) visit(*e.case_operand);
  if (e.else_expr) visit(*e.else_expr);
}

}  // namespace

int measure_depth(ast::Expr& root) {
  // Post-order with an explicit stack: a node is measured once its children are.
  std::vector<ast::Expr*> pending{&root};
  while (!pending.empty()) {
    ast::Expr* e = pending.back();
    if (e->depth > 0) {
      pending.pop_back();
      continue;
    }
    bool children_measured = true;
    for_each_child(*e, [&](ast::Expr& child) {
      if (child.depth == 0) {
        pending.push_back(&child);
        children_measured = false;
      }
    });
    if (!children_measured) continue;
    int deepest = 0;
    for_each_child(*e, [&](ast::Expr& child) { deepest = std::max(deepest, child.depth); });
    e->depth = deepest + 1;
    pending.pop_back();
  }
  return root.depth;
}

}  // namespace tally
