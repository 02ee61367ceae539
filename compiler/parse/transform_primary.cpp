// Primary expressions: literals, parameters, CAST, CASE, EXTRACT, function calls, columns.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "compiler/common/interval.h"
#include "compiler/parse/transformer.h"

namespace tally {
namespace {

std::string_view trim_spaces(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// "-90", "+3", "12": an optional sign and digits; nullopt otherwise or when out of range.
std::optional<int64_t> parse_whole_number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

ast::ExprPtr Transformer::transform_primary(P::PrimaryContext& ctx) {
  if (auto* literal = ctx.literal()) return transform_literal(*literal);
  if (auto* date = ctx.dateLiteral()) return transform_date_literal(*date);
  if (auto* stamp = ctx.timestampLiteral()) return transform_timestamp_literal(*stamp);
  if (auto* zoned = ctx.timestampTzLiteral()) {
    return transform_string_cast(*zoned, *zoned->STRING_LITERAL(), "TIMESTAMPTZ");
  }
  if (auto* time = ctx.timeLiteral()) {
    return transform_string_cast(*time, *time->STRING_LITERAL(), "TIME");
  }
  if (auto* interval = ctx.intervalLiteral()) return transform_interval_literal(*interval);
  if (auto* parameter = ctx.parameter()) return transform_parameter(*parameter);
  if (auto* cast = ctx.castFunction()) return transform_cast_function(*cast);
  if (auto* case_expression = ctx.caseExpression()) return transform_case(*case_expression);
  if (auto* extract = ctx.extractFunction()) return transform_extract(*extract);
  if (auto* substring = ctx.substringFunction()) return transform_substring(*substring);
  if (auto* trim = ctx.trimFunction()) return transform_trim(*trim);
  if (auto* call = ctx.functionCall()) return transform_function_call(*call);
  if (auto* column = ctx.columnReference()) return transform_column_reference(*column);
  if (auto* subquery = ctx.subquery()) {
    return transform_subquery(*subquery->selectStatement(), ast::ExprKind::ScalarSubquery,
                              ctx.start, ctx.stop);
  }
  if (auto* exists = ctx.existsSubquery()) {
    return transform_subquery(*exists->selectStatement(), ast::ExprKind::Exists, ctx.start,
                              ctx.stop);
  }
  // A parenthesised expression keeps its parentheses in source_text.
  ast::ExprPtr inner = transform_expression(*ctx.expression());
  inner->location = location_of(ctx.start);
  inner->source_text = source_text(ctx.start, ctx.stop);
  return inner;
}

ast::ExprPtr Transformer::transform_literal(P::LiteralContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::NullLiteral, ctx.start, ctx.stop);
  switch (ctx.start->getType()) {
    case P::INTEGER_LITERAL:
      expr->kind = ast::ExprKind::IntegerLiteral;
      break;
    case P::DECIMAL_LITERAL:
      expr->kind = ast::ExprKind::DecimalLiteral;
      break;
    case P::FLOAT_LITERAL:
      expr->kind = ast::ExprKind::FloatLiteral;
      break;
    case P::STRING_LITERAL:
      expr->kind = ast::ExprKind::StringLiteral;
      expr->text = unquote_string(*ctx.start);
      return expr;
    case P::TRUE:
    case P::FALSE:
      expr->kind = ast::ExprKind::BooleanLiteral;
      expr->boolean_value = ctx.TRUE() != nullptr;
      return expr;
    default:
      return expr;  // NULL
  }
  expr->text = ctx.getText();
  return expr;
}

ast::ExprPtr Transformer::transform_date_literal(P::DateLiteralContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::DateLiteral, ctx.start, ctx.stop);
  expr->text = unquote_string(*ctx.STRING_LITERAL()->getSymbol());
  return expr;
}

// INTERVAL '90' DAY [(3)], INTERVAL 90 DAYS, or INTERVAL '1 day 2 hours' (PostgreSQL's text).
ast::ExprPtr Transformer::transform_interval_literal(P::IntervalLiteralContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::IntervalLiteral, ctx.start, ctx.stop);
  antlr4::Token* value = ctx.value;
  std::string text =
      value->getType() == P::STRING_LITERAL ? unquote_string(*value) : value->getText();
  IntervalParse parse;
  if (auto* unit = ctx.intervalUnit()) {
    std::optional<int64_t> count = parse_whole_number(trim_spaces(text));
    if (count) parse = interval_of(*count, unit->getText());
  } else {
    parse = parse_interval(text);
  }
  if (parse.unknown_unit) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("interval unit '{}' is not supported ({})", parse.bad_piece,
                            interval_unit_names()),
                location_of(value));
  }
  if (!parse.parts) {
    throw_syntax_error(value, fmt::format("invalid interval '{}': expected whole numbers of "
                                          "units ('3 days', '1 month 2 hours', '02:30:00')",
                                          text));
  }
  expr->interval_months = parse.parts->months;
  expr->interval_days = parse.parts->days;
  expr->interval_micros = parse.parts->micros;
  return expr;
}

ast::ExprPtr Transformer::transform_timestamp_literal(P::TimestampLiteralContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::TimestampLiteral, ctx.start, ctx.stop);
  expr->text = unquote_string(*ctx.STRING_LITERAL()->getSymbol());
  return expr;
}

ast::ExprPtr Transformer::transform_string_cast(antlr4::ParserRuleContext& ctx,
                                                antlr4::tree::TerminalNode& literal,
                                                const char* type_name) {
  ast::ExprPtr text =
      make_expr(ast::ExprKind::StringLiteral, literal.getSymbol(), literal.getSymbol());
  text->text = unquote_string(*literal.getSymbol());
  ast::ExprPtr cast = make_expr(ast::ExprKind::Cast, ctx.start, ctx.stop);
  cast->children.push_back(std::move(text));
  cast->cast_type.name = type_name;
  cast->cast_type.location = location_of(ctx.start);
  return cast;
}

ast::ExprPtr Transformer::transform_parameter(P::ParameterContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::Parameter, ctx.start, ctx.stop);
  auto position = std::lower_bound(parameter_tokens_.begin(), parameter_tokens_.end(),
                                   ctx.start->getTokenIndex());
  expr->parameter_index = static_cast<int>(position - parameter_tokens_.begin());
  return expr;
}

ast::ExprPtr Transformer::transform_cast_function(P::CastFunctionContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::Cast, ctx.start, ctx.stop);
  expr->children.push_back(transform_expression(*ctx.expression()));
  expr->cast_type = transform_type_name(*ctx.typeName());
  return expr;
}

ast::ExprPtr Transformer::transform_case(P::CaseExpressionContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::Case, ctx.start, ctx.stop);
  if (ctx.operand != nullptr) expr->case_operand = transform_expression(*ctx.operand);
  for (P::CaseWhenContext* when : ctx.caseWhen()) {
    expr->children.push_back(transform_expression(*when->condition));
    expr->children.push_back(transform_expression(*when->result));
  }
  if (ctx.elseResult != nullptr) expr->else_expr = transform_expression(*ctx.elseResult);
  return expr;
}

ast::ExprPtr Transformer::transform_extract(P::ExtractFunctionContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::FunctionCall, ctx.start, ctx.stop);
  expr->name = "EXTRACT";
  P::ExtractFieldContext& field = *ctx.extractField();
  // EXTRACT('dow' FROM d) as PostgreSQL also accepts; the binder checks the name.
  expr->extract_field = upper_ascii(field.identifier() != nullptr
                                        ? transform_identifier(*field.identifier())
                                        : unquote_string(*field.STRING_LITERAL()->getSymbol()));
  expr->children.push_back(transform_expression(*ctx.expression()));
  return expr;
}

ast::ExprPtr Transformer::transform_function_call(P::FunctionCallContext& ctx) {
  if (ctx.OVER() != nullptr) throw_unsupported(ctx.OVER()->getSymbol(), "window functions");
  ast::ExprPtr expr = make_expr(ast::ExprKind::FunctionCall, ctx.start, ctx.stop);
  P::FunctionNameContext& name = *ctx.functionName();
  expr->name = upper_ascii(name.identifier() != nullptr ? transform_identifier(*name.identifier())
                                                        : name.getText());
  expr->star = ctx.STAR() != nullptr;
  expr->distinct = ctx.DISTINCT() != nullptr;
  expr->children = transform_expressions(ctx.expression());
  if (P::OrderByClauseContext* order = ctx.orderByClause()) {
    for (P::OrderItemContext* item : order->orderItem()) {
      expr->order_by.push_back(transform_order_item(*item));
    }
  }
  if (P::WithinGroupContext* within = ctx.withinGroup()) {
    // PostgreSQL takes one ORDER BY in the call or WITHIN GROUP, never both.
    if (!expr->order_by.empty()) {
      throw Error(ErrorKind::Syntax, "cannot use multiple ORDER BY clauses with WITHIN GROUP",
                  location_of(within->start));
    }
    expr->within_group = location_of(within->start);
    for (P::OrderItemContext* item : within->orderByClause()->orderItem()) {
      expr->order_by.push_back(transform_order_item(*item));
    }
  }
  if (auto* filter = ctx.filterClause()) expr->filter = transform_expression(*filter->expression());
  return expr;
}

// SUBSTRING(s FROM start [FOR count]) is SUBSTRING(s, start [, count]).
ast::ExprPtr Transformer::transform_substring(P::SubstringFunctionContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::FunctionCall, ctx.start, ctx.stop);
  expr->name = "SUBSTRING";
  expr->children.push_back(transform_expression(*ctx.source));
  expr->children.push_back(transform_expression(*ctx.position));
  if (ctx.length != nullptr) expr->children.push_back(transform_expression(*ctx.length));
  return expr;
}

// TRIM([BOTH | LEADING | TRAILING] [chars] FROM s) is trim, ltrim or rtrim(s [, chars]).
ast::ExprPtr Transformer::transform_trim(P::TrimFunctionContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::FunctionCall, ctx.start, ctx.stop);
  const size_t side = ctx.side == nullptr ? size_t{P::BOTH} : ctx.side->getType();
  expr->name = side == P::LEADING ? "LTRIM" : side == P::TRAILING ? "RTRIM" : "TRIM";
  expr->children.push_back(transform_expression(*ctx.source));
  if (ctx.characters != nullptr) expr->children.push_back(transform_expression(*ctx.characters));
  return expr;
}

ast::ExprPtr Transformer::transform_column_reference(P::ColumnReferenceContext& ctx) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::ColumnRef, ctx.start, ctx.stop);
  std::vector<std::string> names = transform_identifiers(ctx.identifier());
  expr->name = names.back();
  if (names.size() > 1) expr->qualifier = names.front();
  return expr;
}

}  // namespace tally
