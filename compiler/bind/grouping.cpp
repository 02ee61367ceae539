// GROUP BY, and the rewrite of an aggregated query's outputs and HAVING over group keys and
// aggregate results.
#include <fmt/format.h>

#include "compiler/bind/select_binder.h"

namespace tally {

int select_position(const ast::Expr& ordinal, size_t visible_outputs, const char* clause) {
  const std::string& digits = ordinal.text;
  const bool small = !digits.empty() && digits.size() <= 9;
  const long position = small ? std::stol(digits) : 0;
  if (position < 1 || static_cast<size_t>(position) > visible_outputs) {
    throw Error(ErrorKind::Binder,
                fmt::format("{} position {} is not in select list", clause, digits),
                ordinal.location);
  }
  return static_cast<int>(position - 1);
}

int SelectBinder::output_named(const std::string& name, const ast::Expr& item,
                               const char* clause) const {
  int found = -1;
  for (size_t i = 0; i < visible_; ++i) {
    if (outputs_[i].name != name) continue;
    if (found >= 0 && !expr_equal(*outputs_[static_cast<size_t>(found)].expr, *outputs_[i].expr)) {
      throw Error(ErrorKind::Binder, fmt::format("{} \"{}\" is ambiguous", clause, name),
                  item.location);
    }
    if (found < 0) found = static_cast<int>(i);
  }
  return found;
}

void SelectBinder::bind_group_by() {
  for (const auto& item : stmt_.group_by) {
    ExprPtr key = group_item(*item);
    bool seen = false;
    for (const auto& k : group_keys_) seen = seen || expr_equal(*k, *key);
    if (!seen) group_keys_.push_back(key);
  }
}

ExprPtr SelectBinder::group_item(const ast::Expr& item) {
  int output = -1;
  if (item.kind == ast::ExprKind::IntegerLiteral) {
    output = select_position(item, visible_, "GROUP BY");
  } else if (item.kind == ast::ExprKind::ColumnRef && item.qualifier.empty() &&
             !ctx_.has_column(item.name)) {
    // A select alias, unless an input column has the name (PostgreSQL's rule).
    output = output_named(item.name, item, "GROUP BY");
  }
  if (output < 0) return ExpressionBinder(ctx_, {"GROUP BY", false}).bind_root(item);
  const SelectOutput& o = outputs_[static_cast<size_t>(output)];
  if (contains_kind(*o.expr, ExprKind::AggregateRef)) {
    throw Error(ErrorKind::Binder, "aggregate functions are not allowed in GROUP BY", o.location);
  }
  return o.expr;
}

ExprPtr SelectBinder::rewrite_expr(const ExprPtr& e, SourceLocation fallback) const {
  if (e->kind == ExprKind::Constant || e->kind == ExprKind::Parameter ||
      e->kind == ExprKind::AggregateRef) {
    return e;
  }
  for (size_t i = 0; i < group_keys_.size(); ++i) {
    if (!expr_equal(*e, *group_keys_[i])) continue;
    auto ref = std::make_shared<Expr>();
    ref->kind = ExprKind::GroupKeyRef;
    ref->type = group_keys_[i]->type;
    ref->index = static_cast<int>(i);
    ref->text = e->text;
    ref->location = e->location;
    return ref;
  }
  if (e->kind == ExprKind::ColumnRef) {
    throw Error(ErrorKind::Binder,
                fmt::format("column \"{}\" must appear in the GROUP BY clause or be used in an "
                            "aggregate function",
                            ctx_.scan()[static_cast<size_t>(e->index)].name),
                e->location.line > 0 ? e->location : fallback);
  }
  std::shared_ptr<Expr> copy;
  for (size_t i = 0; i < e->children.size(); ++i) {
    ExprPtr child = rewrite_expr(e->children[i], fallback);
    if (child == e->children[i]) continue;
    if (!copy) copy = std::make_shared<Expr>(*e);
    copy->children[i] = child;
  }
  return copy ? copy : e;
}

void SelectBinder::rewrite_above_aggregation() {
  for (auto& o : outputs_) o.expr = rewrite_expr(o.expr, o.location);
  if (having_) having_ = rewrite_expr(having_, stmt_.having->location);
}

void SelectBinder::rewrite_distinct_as_grouping() {
  for (size_t i = 0; i < visible_; ++i) {
    bool seen = false;
    for (const auto& k : group_keys_) seen = seen || expr_equal(*k, *outputs_[i].expr);
    if (!seen) group_keys_.push_back(outputs_[i].expr);
  }
  // ORDER BY under DISTINCT only names select items, so there are no hidden outputs.
  for (auto& o : outputs_) o.expr = rewrite_expr(o.expr, o.location);
}

}  // namespace tally
