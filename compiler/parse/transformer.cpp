#include "compiler/parse/transformer.h"

#include <fmt/format.h>

#include <algorithm>

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

Transformer::Transformer(std::string_view source, antlr4::TokenStream& tokens)
    : source_(source),
      shared_source_(std::make_shared<const std::string>(source)),
      tokens_(tokens) {
  // ANTLR indexes code points (after a UTF-8 byte order mark, which it drops); a code point
  // starts at every byte that is not a UTF-8 continuation byte.
  size_t begin = source.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  byte_offsets_.reserve(source.size() - begin + 1);
  for (size_t i = begin; i < source.size(); ++i) {
    if ((static_cast<unsigned char>(source[i]) & 0xC0) != 0x80) byte_offsets_.push_back(i);
  }
  byte_offsets_.push_back(source.size());
}

SqlText Transformer::source_text(antlr4::Token* start, antlr4::Token* stop) {
  size_t begin = byte_offsets_.at(start->getStartIndex());
  size_t end = std::max(begin, byte_offsets_.at(stop->getStopIndex() + 1));
  return SqlText(shared_source_, std::string_view(*shared_source_).substr(begin, end - begin));
}

void Transformer::throw_syntax_error(antlr4::Token* at, std::string_view problem) {
  throw make_syntax_error(source_, location_of(at), problem);
}

void Transformer::throw_unsupported(antlr4::Token* at, std::string_view what) {
  throw Error(ErrorKind::Unsupported, fmt::format("{} are not supported", what), location_of(at));
}

}  // namespace tally
