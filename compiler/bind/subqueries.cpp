// Subquery expressions bound from the results the session computed before binding:
// (SELECT ...) and EXISTS (...) become constants, x IN (SELECT ...) an IN list of them.
#include <fmt/format.h>

#include "compiler/bind/expression_binder.h"

namespace tally {

namespace {

ExprPtr subquery_constant(const SubqueryResult& result, size_t row, const ast::Expr& site) {
  ExprPtr constant;
  if (row >= result.values.size() || result.values[row].null) {
    constant = make_null_constant(result.type);
  } else if (result.type.is_string()) {
    constant = make_string_constant(result.texts.at(row), site.source_text);
  } else {
    constant = make_constant(result.values[row], result.type, site.source_text);
  }
  auto node = std::make_shared<Expr>(*constant);
  node->type = result.type;
  node->location = site.location;
  return node;
}

}  // namespace

ExprPtr ExpressionBinder::bind_subquery(const ast::Expr& e) {
  const SubqueryResult& result = ctx_.subquery(e);
  if (e.kind != ast::ExprKind::InSubquery) return subquery_constant(result, 0, e);
  std::vector<Operand> ops;
  ops.push_back(bind_operand(*e.children.at(0)));
  // x IN (no rows) is false and NOT IN true, whatever x is, NULL included.
  if (result.values.empty()) {
    return make_constant(Value::from_bool(e.negated), Type::boolean(), e.source_text);
  }
  for (size_t row = 0; row < result.values.size(); ++row) {
    ops.push_back(make_operand(subquery_constant(result, row, e), e));
  }
  return in_list(e, std::move(ops));
}

}  // namespace tally
