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
  if (stmt_.group_by_all) {
    // DuckDB's GROUP BY ALL: every select item that contains no aggregate.
    for (size_t i = 0; i < visible_; ++i) {
      if (!contains_kind(*outputs_[i].expr, ExprKind::AggregateRef))
        add_group_key(outputs_[i].expr);
    }
    return;
  }
  std::vector<size_t> key_of;  // group_by item -> its key
  for (const auto& item : stmt_.group_by) key_of.push_back(add_group_key(group_item(*item)));
  for (const auto& set : stmt_.grouping_sets) {
    uint64_t mask = 0;
    for (int item : set) mask |= uint64_t{1} << key_of[static_cast<size_t>(item)];
    result_.grouping_sets.push_back(mask);
  }
}

size_t SelectBinder::add_group_key(const ExprPtr& key) {
  for (size_t k = 0; k < group_keys_.size(); ++k) {
    if (expr_equal(*group_keys_[k], *key)) return k;
  }
  if (group_keys_.size() == kMaxGroupKeys && !stmt_.grouping_sets.empty()) {
    throw Error(ErrorKind::Binder,
                fmt::format("grouping sets take at most {} distinct keys", kMaxGroupKeys),
                stmt_.group_by_location);
  }
  group_keys_.push_back(key);
  return group_keys_.size() - 1;
}

// GROUPING(args) over the keys: each argument must be one of them (PostgreSQL's rule).
ExprPtr SelectBinder::rewrite_grouping(const ExprPtr& e, SourceLocation fallback) const {
  auto copy = std::make_shared<Expr>(*e);
  for (auto& child : copy->children) {
    ExprPtr key;
    for (size_t i = 0; i < group_keys_.size() && !key; ++i) {
      if (expr_equal(*child, *group_keys_[i])) key = rewrite_expr(child, fallback);
    }
    if (!key) {
      throw Error(ErrorKind::Binder,
                  "arguments to GROUPING must be grouping expressions of the associated query "
                  "level",
                  child->location.line > 0 ? child->location : fallback);
    }
    child = key;
  }
  return copy;
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
  if (e->kind == ExprKind::Grouping) return rewrite_grouping(e, fallback);
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
