// ORDER BY, LIMIT and OFFSET.
#include <fmt/format.h>

#include <algorithm>

#include "compiler/bind/select_binder.h"

namespace tally {

void SelectBinder::bind_order_by() {
  // Default NULL placement: NULLS LAST for ASC, NULLS FIRST for DESC (PostgreSQL); the
  // default_null_order setting may move it (nulls_given false).
  auto sort_key = [](int output, const ast::OrderItem& item) {
    return SortKey{output, item.descending, item.nulls_first.value_or(item.descending),
                   item.nulls_first.has_value()};
  };
  if (stmt_.order_by_all) {
    // DuckDB's ORDER BY ALL: every select item, left to right.
    for (size_t i = 0; i < visible_; ++i) {
      result_.order_by.push_back(sort_key(static_cast<int>(i), *stmt_.order_by_all));
    }
  }
  for (const auto& item : stmt_.order_by) {
    result_.order_by.push_back(sort_key(order_item(*item.expr), item));
  }
}

// DISTINCT ON (exprs): outputs like ORDER BY items (hidden when not selected). The ORDER
// BY must start with them, in any order, as PostgreSQL requires.
void SelectBinder::bind_distinct_on() {
  for (const auto& e : stmt_.distinct_on) {
    const int output = order_item(*e);
    auto& on = result_.distinct_on;
    if (std::find(on.begin(), on.end(), output) == on.end()) on.push_back(output);
  }
  size_t covered = 0;
  for (const SortKey& key : result_.order_by) {
    if (covered == result_.distinct_on.size()) break;
    const auto& on = result_.distinct_on;
    if (std::find(on.begin(), on.end(), key.output) == on.end()) {
      throw Error(ErrorKind::Binder,
                  "SELECT DISTINCT ON expressions must match initial ORDER BY expressions",
                  stmt_.distinct_on_location);
    }
    // A key repeated in ORDER BY covers nothing new.
    bool before = false;
    for (size_t i = 0; &result_.order_by[i] != &key; ++i) {
      before = before || result_.order_by[i].output == key.output;
    }
    if (!before) ++covered;
  }
}

int SelectBinder::order_item(const ast::Expr& item) {
  using K = ast::ExprKind;
  if (item.kind == K::IntegerLiteral) return select_position(item, visible_, "ORDER BY");
  if (item.kind == K::DecimalLiteral || item.kind == K::FloatLiteral ||
      item.kind == K::StringLiteral) {
    throw Error(ErrorKind::Binder,
                fmt::format("non-integer constant {} in ORDER BY", item.source_text),
                item.location);
  }
  if (item.kind == K::ColumnRef && item.qualifier.empty()) {
    // Output names win over input columns (PostgreSQL's rule).
    int output = output_named(item.name, item, "ORDER BY");
    if (output >= 0) return output;
  }
  ExprPtr e = ExpressionBinder(ctx_, {"ORDER BY", true}).bind_root(item);
  for (size_t i = 0; i < outputs_.size(); ++i) {
    if (expr_equal(*outputs_[i].expr, *e)) return static_cast<int>(i);
  }
  if (stmt_.distinct) {
    throw Error(ErrorKind::Binder,
                "for SELECT DISTINCT, ORDER BY expressions must appear in select list",
                item.location);
  }
  outputs_.push_back({item.source_text.str(), e, &item, item.location});
  return static_cast<int>(outputs_.size() - 1);
}

namespace {

// A LIMIT/OFFSET value: a non-negative integer constant (nullopt for NULL: no limit) or a
// BIGINT parameter, whose index goes to *parameter.
std::optional<int64_t> limit_value(const ast::Expr& e, const char* clause, BindContext& ctx,
                                   int* parameter) {
  if (e.kind == ast::ExprKind::Parameter) {
    ctx.type_parameter(*ctx.parameter(e.parameter_index, e.location), Type::bigint());
    *parameter = e.parameter_index;
    return std::nullopt;
  }
  BindContext no_columns(nullptr, {}, 0);
  ExprPtr v = ExpressionBinder(no_columns, {clause, false}).bind_root(e);
  if (v->kind != ExprKind::Constant || !(v->type.is_integer() || v->value.null)) {
    throw Error(ErrorKind::Type,
                fmt::format("argument of {} must be an integer constant or a parameter", clause),
                e.location);
  }
  if (v->value.null) return std::nullopt;
  if (v->value.i < 0) {
    throw Error(ErrorKind::Type, fmt::format("{} must not be negative", clause), e.location);
  }
  return v->value.i;
}

}  // namespace

void SelectBinder::bind_limit_offset() {
  if (stmt_.limit) {
    result_.limit = limit_value(*stmt_.limit, "LIMIT", ctx_, &result_.limit_parameter);
  }
  if (stmt_.offset) {
    result_.offset =
        limit_value(*stmt_.offset, "OFFSET", ctx_, &result_.offset_parameter).value_or(0);
  }
}

}  // namespace tally
