// SELECT: items, FROM, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT/OFFSET. Joins, which the
// grammar recognises only to refuse, stop here; WITH, set operations and derived tables are
// in transform_query_forms.cpp.
#include <fmt/format.h>

#include "compiler/parse/transformer.h"

namespace tally {

ast::SelectStmt Transformer::transform_select_core(P::SelectCoreContext& ctx) {
  ast::SelectStmt select;
  select.distinct = ctx.DISTINCT() != nullptr;
  if (auto* on = ctx.distinctOn()) {
    select.distinct = false;
    select.distinct_on = transform_expressions(on->expression());
    select.distinct_on_location = location_of(on->start);
  }
  for (P::SelectItemContext* item : ctx.selectItem()) {
    select.items.push_back(transform_select_item(*item));
  }
  if (auto* from = ctx.fromClause()) select.from = transform_from(*from);
  if (auto* where = ctx.whereClause()) select.where = transform_expression(*where->expression());
  if (auto* group_by = ctx.groupByClause()) transform_group_by(*group_by, select);
  if (auto* having = ctx.havingClause()) {
    select.having = transform_expression(*having->expression());
  }
  if (auto* order_by = ctx.orderByClause()) transform_order_by(*order_by, select);
  if (auto* limit = ctx.limitClause()) transform_limit(*limit, select);
  return select;
}

void Transformer::transform_limit(P::LimitClauseContext& ctx, ast::SelectStmt& select) {
  if (ctx.limit != nullptr) select.limit = transform_expression(*ctx.limit);
  if (ctx.offset != nullptr) select.offset = transform_expression(*ctx.offset);
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
  ast::TableRef ref;
  if (auto* file = dynamic_cast<P::FileTableContext*>(ctx.tableReference())) {
    ref = transform_file_table(*file->STRING_LITERAL()->getSymbol(), {});
    if (auto* alias = file->identifier()) ref.alias = transform_identifier(*alias);
    return ref;
  }
  if (auto* call = dynamic_cast<P::TableFunctionContext*>(ctx.tableReference())) {
    std::vector<P::IdentifierContext*> names = call->identifier();
    std::string function = lower_ascii(transform_identifier(*names[0]));
    if (function != "read_csv" && function != "read_csv_auto") {
      throw_unsupported(call->start,
                        fmt::format("table functions other than read_csv ({})", function));
    }
    ref = transform_file_table(*call->STRING_LITERAL()->getSymbol(), call->fileOption());
    if (names.size() > 1) ref.alias = transform_identifier(*names[1]);
    return ref;
  }
  if (auto* derived = dynamic_cast<P::DerivedTableContext*>(ctx.tableReference())) {
    return transform_derived_table(*derived);
  }
  if (auto* series = dynamic_cast<P::SeriesFunctionContext*>(ctx.tableReference())) {
    return transform_series_function(*series);
  }
  auto& table = dynamic_cast<P::NamedTableContext&>(*ctx.tableReference());
  std::vector<P::IdentifierContext*> names = table.identifier();
  ref.name = transform_identifier(*names[0]);
  if (names.size() > 1) ref.alias = transform_identifier(*names[1]);
  ref.location = location_of(table.start);
  return ref;
}

// A file in FROM is named in the query by its file name without folders and extension,
// as in DuckDB: FROM 'data/sales.csv' makes sales.amount usable.
ast::TableRef Transformer::transform_file_table(antlr4::Token& path,
                                                const std::vector<P::FileOptionContext*>& options) {
  ast::TableRef ref;
  ref.is_file = true;
  ref.name = unquote_string(path);
  ref.location = location_of(&path);
  std::string stem = ref.name.substr(ref.name.find_last_of('/') + 1);
  ref.alias = stem.substr(0, stem.find('.'));
  if (ref.alias.empty()) ref.alias = stem;
  for (P::FileOptionContext* option : options) {
    auto [name, value] = transform_file_option(*option);
    if (!ref.file_options.emplace(name, std::move(value)).second) {
      throw_syntax_error(option->start, fmt::format("read_csv option '{}' is given twice", name));
    }
  }
  return ref;
}

// header => true|false and delim => 'c' (delimiter and sep are accepted for delim).
std::pair<std::string, std::string> Transformer::transform_file_option(P::FileOptionContext& ctx) {
  std::string name = lower_ascii(transform_identifier(*ctx.identifier()));
  if (name == "header") {
    if (ctx.booleanOptionValue() == nullptr) {
      throw_syntax_error(ctx.STRING_LITERAL()->getSymbol(), "header takes true or false");
    }
    return {name, transform_header_value(ctx.booleanOptionValue())};
  }
  if (name == "delim" || name == "delimiter" || name == "sep") {
    if (ctx.STRING_LITERAL() == nullptr) {
      throw_syntax_error(ctx.booleanOptionValue()->start, "delim takes a one-character string");
    }
    std::string written = unquote_string(*ctx.STRING_LITERAL()->getSymbol());
    if (written != "\\t" && written.size() != 1) {
      throw_syntax_error(ctx.STRING_LITERAL()->getSymbol(), "delim takes a one-character string");
    }
    // '\t' is DuckDB's spelling of a tab.
    return {"delim", std::string(1, written == "\\t" ? '\t' : written[0])};
  }
  throw Error(ErrorKind::Unsupported,
              fmt::format("read_csv option '{}' is not supported (header, delim)", name),
              location_of(ctx.start));
}

// ORDER BY items, or ORDER BY ALL [ASC|DESC] [NULLS FIRST|LAST] (DuckDB): every select item.
void Transformer::transform_order_by(P::OrderByClauseContext& ctx, ast::SelectStmt& select) {
  if (ctx.ALL() != nullptr) {
    ast::OrderItem all;
    all.descending = ctx.DESC() != nullptr;
    if (ctx.NULLS() != nullptr) all.nulls_first = ctx.FIRST() != nullptr;
    select.order_by_all = std::move(all);
    return;
  }
  for (P::OrderItemContext* item : ctx.orderItem()) {
    select.order_by.push_back(transform_order_item(*item));
  }
}

ast::OrderItem Transformer::transform_order_item(P::OrderItemContext& ctx) {
  ast::OrderItem item;
  item.expr = transform_expression(*ctx.expression());
  item.descending = ctx.DESC() != nullptr;
  if (ctx.NULLS() != nullptr) item.nulls_first = ctx.FIRST() != nullptr;
  return item;
}

}  // namespace tally
