// Parse tree -> AST. One transform method per grammar rule (Kuzu's Transformer is the
// model); the only code besides parser.cpp that sees ANTLR types. Split over
// transform_{statement,select,query_forms,expression,primary,name}.cpp.
#pragma once

#include <antlr4-runtime.h>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "TallySQLParser.h"
#include "compiler/parse/ast.h"

namespace tally {

// Grouping sets as lists of indices into a SELECT's group_by.
using GroupingSets = std::vector<std::vector<int>>;

class Transformer {
 public:
  using P = tally_grammar::TallySQLParser;

  // `source` is the script's text, `tokens` the stream the tree was parsed from:
  // expressions and statements keep their exact source text.
  Transformer(std::string_view source, antlr4::TokenStream& tokens);

  std::vector<ast::Statement> transform_script(P::ScriptContext& ctx);

 private:
  // Statements (transform_statement.cpp).
  ast::Statement transform_statement(P::StatementContext& ctx);
  ast::CreateTableStmt transform_create_table(P::CreateTableStatementContext& ctx);
  ast::ColumnDef transform_column_definition(P::ColumnDefinitionContext& ctx);
  ast::DropTableStmt transform_drop_table(P::DropTableStatementContext& ctx);
  ast::CopyStmt transform_copy(P::CopyStatementContext& ctx);
  ast::CopyToStmt transform_copy_to(P::CopyToStatementContext& ctx);
  std::vector<std::string> transform_column_list(P::ColumnListContext* ctx);
  std::map<std::string, std::string> transform_copy_options(P::CopyOptionsContext* ctx);
  std::pair<std::string, std::string> transform_copy_option(P::CopyOptionContext& ctx);
  std::string transform_header_value(P::BooleanOptionValueContext* ctx);
  std::string transform_copy_format(P::CopyFormatContext& ctx);
  ast::InsertStmt transform_insert(P::InsertStatementContext& ctx);

  // SET, RESET, SHOW, DESCRIBE, EXPLAIN and refused statements (transform_session.cpp).
  ast::StatementBody transform_session_statement(P::StatementContext& ctx);
  ast::SetStmt transform_set(P::SetStatementContext& ctx);
  std::string transform_setting_value(P::SettingValueContext& ctx);
  ast::SetStmt transform_reset(P::ResetStatementContext& ctx);
  ast::ShowStmt transform_show(P::ShowStatementContext& ctx);
  [[noreturn]] void throw_unsupported_statement(P::UnsupportedStatementContext& ctx);

  // SELECT (transform_select.cpp).
  ast::SelectStmt transform_select(P::SelectStatementContext& ctx);
  ast::SelectStmt transform_select_core(P::SelectCoreContext& ctx);
  ast::SelectItem transform_select_item(P::SelectItemContext& ctx);
  ast::TableRef transform_from(P::FromClauseContext& ctx);
  ast::TableRef transform_file_table(antlr4::Token& path,
                                     const std::vector<P::FileOptionContext*>& options);
  std::pair<std::string, std::string> transform_file_option(P::FileOptionContext& ctx);
  ast::OrderItem transform_order_item(P::OrderItemContext& ctx);
  void transform_order_by(P::OrderByClauseContext& ctx, ast::SelectStmt& select);
  void transform_limit(P::LimitClauseContext& ctx, ast::SelectStmt& select);

  // GROUP BY and its grouping-set forms (transform_grouping.cpp).
  // The sets are indices into `keys`, where each key named is appended once.
  void transform_group_by(P::GroupByClauseContext& ctx, ast::SelectStmt& select);
  GroupingSets transform_grouping_element(P::GroupingElementContext& ctx,
                                          std::vector<ast::ExprPtr>& keys, bool* has_forms);
  std::vector<int> transform_grouping_columns(P::GroupingColumnsContext& ctx,
                                              std::vector<ast::ExprPtr>& keys);
  GroupingSets rollup_sets(const std::vector<P::GroupingColumnsContext*>& lists,
                           std::vector<ast::ExprPtr>& keys);
  GroupingSets cube_sets(const std::vector<P::GroupingColumnsContext*>& lists,
                         std::vector<ast::ExprPtr>& keys);

  // WITH, set operations, VALUES, derived tables, subqueries (transform_query_forms.cpp).
  std::vector<ast::CommonTableExpr> transform_with(P::WithClauseContext& ctx);
  ast::SelectStmt transform_set_operations(P::SelectStatementContext& ctx);
  ast::SelectStmt combine(P::SetOperationContext& ctx, ast::SelectStmt left, ast::SelectStmt right);
  ast::SelectStmt transform_query_term(P::QueryTermContext& ctx);
  std::vector<std::vector<ast::ExprPtr>> transform_values_list(P::ValuesListContext& ctx);
  ast::TableRef transform_derived_table(P::DerivedTableContext& ctx);
  ast::TableRef transform_series_function(P::SeriesFunctionContext& ctx);
  ast::ExprPtr transform_subquery(P::SelectStatementContext& query, ast::ExprKind kind,
                                  antlr4::Token* start, antlr4::Token* stop);

  // Operators, by precedence level (transform_expression.cpp).
  ast::ExprPtr transform_expression(P::ExpressionContext& ctx);
  ast::ExprPtr transform_or(P::OrExpressionContext& ctx);
  ast::ExprPtr transform_and(P::AndExpressionContext& ctx);
  ast::ExprPtr transform_not(P::NotExpressionContext& ctx);
  ast::ExprPtr transform_predicate(P::PredicateContext& ctx);
  ast::ExprPtr transform_predicate_suffix(ast::ExprPtr value, P::PredicateSuffixContext& ctx,
                                          antlr4::Token* start);
  ast::ExprPtr transform_concat(P::ConcatExpressionContext& ctx);
  ast::ExprPtr transform_additive(P::AdditiveExpressionContext& ctx);
  ast::ExprPtr transform_multiplicative(P::MultiplicativeExpressionContext& ctx);
  ast::ExprPtr transform_unary(P::UnaryExpressionContext& ctx);
  ast::ExprPtr transform_cast(P::CastExpressionContext& ctx);
  std::vector<ast::ExprPtr> transform_expressions(const std::vector<P::ExpressionContext*>& list);
  template <typename Operand, typename OperatorText, typename TransformOperand>
  ast::ExprPtr fold_left(antlr4::Token* start, const std::vector<Operand*>& operands,
                         OperatorText operator_text, TransformOperand transform_operand);

  // Primaries (transform_primary.cpp).
  ast::ExprPtr transform_primary(P::PrimaryContext& ctx);
  ast::ExprPtr transform_literal(P::LiteralContext& ctx);
  ast::ExprPtr transform_date_literal(P::DateLiteralContext& ctx);
  ast::ExprPtr transform_interval_literal(P::IntervalLiteralContext& ctx);
  ast::ExprPtr transform_timestamp_literal(P::TimestampLiteralContext& ctx);
  // TIME '...' and TIMESTAMPTZ '...': the cast of the string to the named type.
  ast::ExprPtr transform_string_cast(antlr4::ParserRuleContext& ctx,
                                     antlr4::tree::TerminalNode& literal, const char* type_name);
  ast::ExprPtr transform_parameter(P::ParameterContext& ctx);
  ast::ExprPtr transform_cast_function(P::CastFunctionContext& ctx);
  ast::ExprPtr transform_case(P::CaseExpressionContext& ctx);
  ast::ExprPtr transform_extract(P::ExtractFunctionContext& ctx);
  ast::ExprPtr transform_function_call(P::FunctionCallContext& ctx);
  ast::ExprPtr transform_substring(P::SubstringFunctionContext& ctx);
  ast::ExprPtr transform_trim(P::TrimFunctionContext& ctx);
  ast::ExprPtr transform_column_reference(P::ColumnReferenceContext& ctx);

  // Names, types and literal text (transform_name.cpp).
  std::string transform_identifier(P::IdentifierContext& ctx);
  std::vector<std::string> transform_identifiers(const std::vector<P::IdentifierContext*>& list);
  ast::TypeName transform_type_name(P::TypeNameContext& ctx);
  int64_t transform_type_parameter(antlr4::tree::TerminalNode& literal);
  std::string unquote_string(antlr4::Token& string_literal);

  // Shared helpers (transformer.cpp).
  ast::ExprPtr make_expr(ast::ExprKind kind, antlr4::Token* start, antlr4::Token* stop);
  ast::ExprPtr make_binary(std::string op, ast::ExprPtr left, ast::ExprPtr right,
                           antlr4::Token* start, antlr4::Token* stop);
  // Shares the script's characters, so it costs the same for any length of text.
  SqlText source_text(antlr4::Token* start, antlr4::Token* stop);
  [[noreturn]] void throw_syntax_error(antlr4::Token* at, std::string_view problem);
  [[noreturn]] void throw_unsupported(antlr4::Token* at, std::string_view what);

  std::string_view source_;
  std::shared_ptr<const std::string> shared_source_;  // what every SqlText points into
  // Byte offset in source_ of each code point ANTLR counts, and one past the last.
  std::vector<size_t> byte_offsets_;
  antlr4::TokenStream& tokens_;
  // Token indexes of the current statement's '?' markers, in text order.
  std::vector<size_t> parameter_tokens_;
};

SourceLocation location_of(const antlr4::Token* token);
std::string lower_ascii(std::string text);
std::string upper_ascii(std::string text);

}  // namespace tally
