#include "compiler/bind/binder.h"

#include <fmt/format.h>

#include "compiler/bind/literals.h"
#include "compiler/bind/select_binder.h"
#include "compiler/common/suggest.h"
#include "compiler/eval/evaluator.h"
#include "compiler/ir/key_conditions.h"

namespace tally {

namespace {

const TableSchema* resolve_table(const ast::SelectStmt& stmt, const Catalog& catalog) {
  if (!stmt.from) return nullptr;
  const std::string& name = stmt.from->name;
  const TableSchema* table = catalog.find_table(name);
  if (!table) {
    throw Error(ErrorKind::Binder,
                fmt::format("table \"{}\" does not exist{}", name,
                            did_you_mean(name, catalog.table_names())),
                stmt.from->location);
  }
  return table;
}

std::string reference_name(const ast::SelectStmt& stmt) {
  if (!stmt.from) return {};
  return stmt.from->alias.empty() ? stmt.from->name : stmt.from->alias;
}

bool is_true_constant(const ExprPtr& e) {
  return e && e->kind == ExprKind::Constant && e->type.id == TypeId::Boolean && !e->value.null &&
         e->value.i != 0;
}

}  // namespace

SelectBinder::SelectBinder(const ast::SelectStmt& stmt, const Catalog& catalog, int parameter_count)
    : stmt_(stmt), ctx_(resolve_table(stmt, catalog), reference_name(stmt), parameter_count) {}

BoundSelect SelectBinder::bind() {
  bind_select_list();
  bind_where();
  bind_group_by();
  bind_having();
  bind_order_by();
  bind_distinct_on();
  const bool aggregated = !group_keys_.empty() || !stmt_.grouping_sets.empty() ||
                          !ctx_.aggregates().empty() || stmt_.having != nullptr ||
                          stmt_.group_by_all || ctx_.grouping_called();
  if (aggregated && has_star_) {
    throw Error(ErrorKind::Binder,
                "SELECT * is not allowed in a query with GROUP BY, aggregates or HAVING",
                star_location_);
  }
  // GROUPING() in a plain GROUP BY: one set of every key, where it is 0.
  if (ctx_.grouping_called() && group_keys_.size() > kMaxGroupKeys) {
    throw Error(ErrorKind::Binder,
                fmt::format("GROUPING() takes a GROUP BY of at most {} keys", kMaxGroupKeys),
                stmt_.group_by_location);
  }
  if (ctx_.grouping_called() && result_.grouping_sets.empty()) {
    result_.grouping_sets.push_back(group_keys_.size() == kMaxGroupKeys
                                        ? ~uint64_t{0}
                                        : (uint64_t{1} << group_keys_.size()) - 1);
  }
  if (aggregated) {
    rewrite_above_aggregation();
    result_.distinct_outputs = stmt_.distinct;
  } else if (stmt_.distinct) {
    rewrite_distinct_as_grouping();
  }
  bind_limit_offset();
  ctx_.check_parameters_typed();

  result_.table = ctx_.table() ? ctx_.table()->name : std::string();
  result_.scan = ctx_.scan();
  result_.filter = filter_;
  result_.aggregated = aggregated || stmt_.distinct;
  result_.group_keys = group_keys_;
  result_.aggregates = ctx_.aggregates();
  result_.having = having_;
  for (const auto& o : outputs_) result_.outputs.push_back({o.name, o.expr});
  result_.visible_outputs = visible_;
  result_.parameter_types = ctx_.parameter_types();
  move_key_conditions_to_where(result_);
  return std::move(result_);
}

void SelectBinder::bind_select_list() {
  ExpressionBinder binder(ctx_, {"SELECT", true});
  for (const auto& item : stmt_.items) {
    if (item.star) {
      if (!ctx_.table()) {
        throw Error(ErrorKind::Binder, "SELECT * with no tables specified is not valid",
                    item.location);
      }
      if (!has_star_) star_location_ = item.location;
      has_star_ = true;
      for (const auto& column : ctx_.table()->columns) {
        outputs_.push_back(
            {column.name, ctx_.column({}, column.name, item.location), nullptr, item.location});
      }
      continue;
    }
    const ast::Expr& e = *item.expr;
    std::string name = item.alias;
    if (name.empty()) name = e.kind == ast::ExprKind::ColumnRef ? e.name : e.source_text.str();
    outputs_.push_back({name, binder.bind_root(e), &e, e.location});
  }
  visible_ = outputs_.size();
}

void SelectBinder::bind_where() {
  if (!stmt_.where) return;
  filter_ = ExpressionBinder(ctx_, {"WHERE", false}).bind_condition(*stmt_.where);
  if (is_true_constant(filter_)) filter_ = nullptr;
}

void SelectBinder::bind_having() {
  if (!stmt_.having) return;
  having_ = ExpressionBinder(ctx_, {"HAVING", true}).bind_condition(*stmt_.having);
  if (is_true_constant(having_)) having_ = nullptr;
}

BoundSelect bind_select(const ast::SelectStmt& stmt, const Catalog& catalog, int parameter_count,
                        const SubqueryValues* subqueries) {
  SelectBinder binder(stmt, catalog, parameter_count);
  binder.set_subqueries(subqueries);
  return binder.bind();
}

ExprPtr bind_constant(const ast::Expr& expr, const Type& target) {
  BindContext ctx(nullptr, {}, 0);
  ExpressionBinder binder(ctx, {"VALUES", false});
  ExprPtr value;
  if (expr.kind == ast::ExprKind::StringLiteral) {
    value = target.is_string() ? string_literal(expr.text, expr.location)
                               : cast_string_literal(expr.text, target, expr.location);
  } else {
    value = binder.bind(expr);
    if (!is_untyped(*value) && !can_cast(value->type, target)) {
      throw Error(ErrorKind::Type,
                  fmt::format("cannot cast {} to {}", value->type.to_string(), target.to_string()),
                  expr.location);
    }
  }
  // Strings are converted unbounded first so that a value too long is an error, not cut.
  const Type conversion = target.is_string() ? Type::varchar() : target;
  ExprPtr converted = convert(value, conversion, ctx);
  if (!is_constant_expr(*converted)) {
    throw Error(ErrorKind::Type, fmt::format("\"{}\" is not a constant", expr.source_text),
                expr.location);
  }
  StringHeap strings;
  EvalContext eval;
  eval.strings = &strings;
  Value v;
  try {
    v = evaluate(*converted, eval);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Execution) throw;
    throw Error(ErrorKind::Type, e.what(), expr.location);
  }
  if (target.is_string() && !v.null) {
    std::optional<std::string_view> fitted = fit_string(strings.get(v.i), target);
    if (!fitted) {
      throw Error(ErrorKind::Type, fmt::format("value too long for type {}", target.to_string()),
                  expr.location);
    }
    value = make_string_constant(std::string(*fitted), expr.source_text);
  } else {
    value = make_constant(v, target, expr.source_text);
  }
  auto typed = std::make_shared<Expr>(*value);
  typed->type = target;
  typed->location = expr.location;
  return typed;
}

}  // namespace tally
