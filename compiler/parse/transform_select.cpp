// SELECT: items, FROM, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT/OFFSET. The constructs the
// grammar recognises only to refuse (WITH, set operations, joins, derived tables) stop here.
#include "compiler/parse/transformer.h"

namespace tally {

ast::SelectStmt Transformer::transform_select(P::SelectStatementContext& ctx) {
  if (auto* with = ctx.withClause()) {
    throw_unsupported(with->start, "WITH queries (common table expressions)");
  }
  if (!ctx.setOperation().empty()) {
    throw_unsupported(ctx.setOperation().front()->start, "UNION, INTERSECT and EXCEPT");
  }
  return transform_select_core(*ctx.selectCore());
}

ast::SelectStmt Transformer::transform_select_core(P::SelectCoreContext& ctx) {
  ast::SelectStmt select;
  select.distinct = ctx.DISTINCT() != nullptr;
  for (P::SelectItemContext* item : ctx.selectItem()) {
    select.items.push_back(transform_select_item(*item));
  }
  if (auto* from = ctx.fromClause()) select.from = transform_from(*from);
  if (auto* where = ctx.whereClause()) select.where = transform_expression(*where->expression());
  if (auto* group_by = ctx.groupByClause()) {
    select.group_by = transform_expressions(group_by->expression());
  }
  if (auto* having = ctx.havingClause()) {
    select.having = transform_expression(*having->expression());
  }
  if (auto* order_by = ctx.orderByClause()) {
    for (P::OrderItemContext* item : order_by->orderItem()) {
      select.order_by.push_back(transform_order_item(*item));
    }
  }
  if (auto* limit = ctx.limitClause()) {
    if (limit->limit != nullptr) select.limit = transform_expression(*limit->limit);
    if (limit->offset != nullptr) select.offset = transform_expression(*limit->offset);
  }
  return select;
}

ast::SelectItem Transformer::transform_select_item(P::SelectItemContext& ctx) {
  ast::SelectItem item;
  item.location = location_of(ctx.start);
  if (dynamic_cast<P::SelectStarContext*>(&ctx) != nullptr) {
    item.star = true;
    return item;
  }
  auto& expression = dynamic_cast<P::SelectExpressionContext&>(ctx);
  item.expr = transform_expression(*expression.expression());
  if (auto* alias = expression.identifier()) item.alias = transform_identifier(*alias);
  return item;
}

ast::TableRef Transformer::transform_from(P::FromClauseContext& ctx) {
  if (!ctx.joinClause().empty()) {
    throw_unsupported(ctx.joinClause().front()->start, "joins (and several tables in FROM)");
  }
  auto* table = dynamic_cast<P::NamedTableContext*>(ctx.tableReference());
  if (table == nullptr) throw_unsupported(ctx.tableReference()->start, "subqueries in FROM");
  ast::TableRef ref;
  std::vector<P::IdentifierContext*> names = table->identifier();
  ref.name = transform_identifier(*names[0]);
  if (names.size() > 1) ref.alias = transform_identifier(*names[1]);
  ref.location = location_of(table->start);
  return ref;
}

ast::OrderItem Transformer::transform_order_item(P::OrderItemContext& ctx) {
  ast::OrderItem item;
  item.expr = transform_expression(*ctx.expression());
  item.descending = ctx.DESC() != nullptr;
  if (ctx.NULLS() != nullptr) item.nulls_first = ctx.FIRST() != nullptr;
  return item;
}

}  // namespace tally
