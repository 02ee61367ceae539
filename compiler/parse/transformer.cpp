#include "compiler/parse/transformer.h"

#include <fmt/format.h>

#include "compiler/parse/syntax_error.h"

namespace tally {

SourceLocation location_of(const antlr4::Token* token) {
  return {static_cast<int>(token->getLine()), static_cast<int>(token->getCharPositionInLine()) + 1};
}

// SQL keywords and unquoted names are ASCII; other characters keep their case.
std::string lower_ascii(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

std::string upper_ascii(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

std::vector<ast::Statement> Transformer::transform_script(P::ScriptContext& ctx) {
  std::vector<ast::Statement> statements;
  for (P::StatementContext* statement : ctx.statement()) {
    statements.push_back(transform_statement(*statement));
  }
  return statements;
}

ast::ExprPtr Transformer::make_expr(ast::ExprKind kind, antlr4::Token* start, antlr4::Token* stop) {
  auto expr = std::make_unique<ast::Expr>();
  expr->kind = kind;
  expr->location = location_of(start);
  expr->source_text = source_text(start, stop);
  return expr;
}

ast::ExprPtr Transformer::make_binary(std::string op, ast::ExprPtr left, ast::ExprPtr right,
                                      antlr4::Token* start, antlr4::Token* stop) {
  ast::ExprPtr expr = make_expr(ast::ExprKind::Binary, start, stop);
  expr->op = std::move(op);
  expr->children.push_back(std::move(left));
  expr->children.push_back(std::move(right));
  return expr;
}

std::string Transformer::source_text(antlr4::Token* start, antlr4::Token* stop) {
  return chars_.getText(antlr4::misc::Interval(start->getStartIndex(), stop->getStopIndex()));
}

void Transformer::throw_syntax_error(antlr4::Token* at, std::string_view problem) {
  throw make_syntax_error(source_, location_of(at), problem);
}

void Transformer::throw_unsupported(antlr4::Token* at, std::string_view what) {
  throw Error(ErrorKind::Unsupported, fmt::format("{} are not supported", what), location_of(at));
}

}  // namespace tally
