#include "compiler/parse/ast.h"

#include <vector>

namespace tally::ast {

// Children are moved to a worklist and freed one at a time, each emptied first, so freeing
// a tree as deep as a 20,000-term chain takes no more stack than freeing a leaf.
Expr::~Expr() {
  std::vector<ExprPtr> pending;
  auto take_children = [&pending](Expr& e) {
    for (ExprPtr& child : e.children) pending.push_back(std::move(child));
    e.children.clear();
    if (e.case_operand) pending.push_back(std::move(e.case_operand));
    if (e.else_expr) pending.push_back(std::move(e.else_expr));
  };
  take_children(*this);
  while (!pending.empty()) {
    ExprPtr next = std::move(pending.back());
    pending.pop_back();
    if (next) take_children(*next);
  }
}

}  // namespace tally::ast
