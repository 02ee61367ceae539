// CREATE TABLE, DROP TABLE, COPY and INSERT; the statement envelope (text, parameters).
// Settings, catalog statements and refused ones are in transform_session.cpp.
#include <fmt/format.h>

#include "compiler/parse/transformer.h"

namespace tally {
ast::Statement Transformer::transform_statement(P::StatementContext& ctx) {
  // Parameters are numbered in text order, whichever order the clauses are transformed in.
  parameter_tokens_.clear();
  for (size_t i = ctx.start->getTokenIndex(); i <= ctx.stop->getTokenIndex(); ++i) {
    if (tokens_.get(i)->getType() == P::QUESTION) parameter_tokens_.push_back(i);
  }
  ast::Statement statement;
  statement.location = location_of(ctx.start);
  statement.text = source_text(ctx.start, ctx.stop).str();
  statement.parameter_count = static_cast<int>(parameter_tokens_.size());
  if (auto* create = ctx.createTableStatement()) {
    statement.body = transform_create_table(*create);
  } else if (auto* drop = ctx.dropTableStatement()) {
    statement.body = transform_drop_table(*drop);
  } else if (auto* copy = ctx.copyStatement()) {
    statement.body = transform_copy(*copy);
  } else if (auto* copy_to = ctx.copyToStatement()) {
    statement.body = transform_copy_to(*copy_to);
  } else if (auto* insert = ctx.insertStatement()) {
    statement.body = transform_insert(*insert);
  } else if (auto* select = ctx.selectStatement()) {
    statement.body = transform_select(*select);
  } else {
    statement.body = transform_session_statement(ctx);
  }
  return statement;
}

ast::CreateTableStmt Transformer::transform_create_table(P::CreateTableStatementContext& ctx) {
  ast::CreateTableStmt create;
  create.name = transform_identifier(*ctx.identifier());
  create.if_not_exists = ctx.IF() != nullptr;
  if (auto* select = ctx.selectStatement()) create.as_select = transform_select(*select);
  for (P::ColumnDefinitionContext* column : ctx.columnDefinition()) {
    create.columns.push_back(transform_column_definition(*column));
  }
  return create;
}

ast::ColumnDef Transformer::transform_column_definition(P::ColumnDefinitionContext& ctx) {
  ast::ColumnDef column;
  column.name = transform_identifier(*ctx.identifier());
  column.type = transform_type_name(*ctx.typeName());
  column.not_null = ctx.NOT() != nullptr;
  column.location = location_of(ctx.start);
  return column;
}

ast::DropTableStmt Transformer::transform_drop_table(P::DropTableStatementContext& ctx) {
  ast::DropTableStmt drop;
  drop.name = transform_identifier(*ctx.identifier());
  drop.if_exists = ctx.IF() != nullptr;
  return drop;
}

ast::CopyStmt Transformer::transform_copy(P::CopyStatementContext& ctx) {
  ast::CopyStmt copy;
  copy.table = transform_identifier(*ctx.identifier());
  copy.columns = transform_column_list(ctx.columnList());
  copy.path = unquote_string(*ctx.STRING_LITERAL()->getSymbol());
  copy.options = transform_copy_options(ctx.copyOptions());
  return copy;
}

ast::CopyToStmt Transformer::transform_copy_to(P::CopyToStatementContext& ctx) {
  ast::CopyToStmt copy;
  if (auto* select = ctx.selectStatement()) {
    copy.query = transform_select(*select);
  } else {
    copy.table = transform_identifier(*ctx.identifier());
    copy.columns = transform_column_list(ctx.columnList());
  }
  copy.path = unquote_string(*ctx.STRING_LITERAL()->getSymbol());
  copy.options = transform_copy_options(ctx.copyOptions());
  return copy;
}

std::vector<std::string> Transformer::transform_column_list(P::ColumnListContext* ctx) {
  if (ctx == nullptr) return {};
  return transform_identifiers(ctx->identifier());
}

std::map<std::string, std::string> Transformer::transform_copy_options(P::CopyOptionsContext* ctx) {
  std::map<std::string, std::string> options;
  if (ctx == nullptr) return options;
  for (P::CopyOptionContext* option : ctx->copyOption()) {
    auto [name, value] = transform_copy_option(*option);
    if (!options.emplace(name, std::move(value)).second) {
      throw_syntax_error(option->start, fmt::format("COPY option '{}' is given twice", name));
    }
  }
  return options;
}

std::pair<std::string, std::string> Transformer::transform_copy_option(P::CopyOptionContext& ctx) {
  if (auto* delimiter = dynamic_cast<P::CopyDelimiterContext*>(&ctx)) {
    return {"delimiter", unquote_string(*delimiter->STRING_LITERAL()->getSymbol())};
  }
  if (auto* header = dynamic_cast<P::CopyHeaderContext*>(&ctx)) {
    return {"header", transform_header_value(header->booleanOptionValue())};
  }
  if (auto* null = dynamic_cast<P::CopyNullContext*>(&ctx)) {
    return {"null", unquote_string(*null->STRING_LITERAL()->getSymbol())};
  }
  return {"format", transform_copy_format(dynamic_cast<P::CopyFormatContext&>(ctx))};
}

// HEADER alone means true; TRUE/ON/1 and FALSE/OFF/0 as in PostgreSQL.
std::string Transformer::transform_header_value(P::BooleanOptionValueContext* ctx) {
  if (ctx == nullptr || ctx->TRUE() != nullptr || ctx->ON() != nullptr) return "true";
  if (ctx->FALSE() != nullptr || ctx->OFF() != nullptr) return "false";
  std::string digits = ctx->INTEGER_LITERAL()->getText();
  if (digits == "1") return "true";
  if (digits == "0") return "false";
  throw_syntax_error(ctx->start, fmt::format("HEADER takes a boolean value, not {}", digits));
}

std::string Transformer::transform_copy_format(P::CopyFormatContext& ctx) {
  std::string format = ctx.identifier() != nullptr
                           ? lower_ascii(transform_identifier(*ctx.identifier()))
                           : lower_ascii(unquote_string(*ctx.STRING_LITERAL()->getSymbol()));
  if (format != "csv" && format != "text") {
    throw Error(ErrorKind::Unsupported,
                fmt::format("COPY format '{}' is not supported (csv or text)", format),
                location_of(ctx.start));
  }
  return format;
}

ast::InsertStmt Transformer::transform_insert(P::InsertStatementContext& ctx) {
  ast::InsertStmt insert;
  insert.table = transform_identifier(*ctx.identifier());
  insert.columns = transform_column_list(ctx.columnList());
  if (auto* select = ctx.selectStatement()) insert.select = transform_select(*select);
  for (P::ValuesRowContext* row : ctx.valuesRow()) {
    insert.rows.push_back(transform_expressions(row->expression()));
  }
  return insert;
}

}  // namespace tally
