// Names, type names and quoted literal text.
#include <fmt/format.h>

#include <charconv>

#include "compiler/parse/transformer.h"

namespace tally {
namespace {

// Text between the outer quotes, with each doubled quote written once ('it''s' -> it's).
std::string strip_quotes(const std::string& quoted, char quote) {
  std::string text;
  for (size_t i = 1; i + 1 < quoted.size(); ++i) {
    text += quoted[i];
    if (quoted[i] == quote) ++i;
  }
  return text;
}

// The canonical spelling of each type keyword (ast::TypeName documents the aliases).
const char* canonical_type_name(size_t first_token, bool varying) {
  using P = Transformer::P;
  switch (first_token) {
    case P::SMALLINT:
    case P::INT2:
      return "SMALLINT";
    case P::INTEGER:
    case P::INT:
    case P::INT4:
      return "INTEGER";
    case P::BIGINT:
    case P::INT8:
      return "BIGINT";
    case P::REAL:
    case P::FLOAT4:
      return "REAL";
    case P::DOUBLE:
    case P::FLOAT:
    case P::FLOAT8:
      return "DOUBLE";
    case P::DECIMAL:
    case P::NUMERIC:
      return "DECIMAL";
    case P::DATE:
      return "DATE";
    case P::TIMESTAMP:
      return "TIMESTAMP";
    case P::CHAR:
    case P::CHARACTER:
      return varying ? "VARCHAR" : "CHAR";
    case P::VARCHAR:
    case P::TEXT:
    case P::STRING:
      return "VARCHAR";
    default:
      return "BOOLEAN";  // BOOLEAN, BOOL: the grammar allows nothing else
  }
}

}  // namespace

std::string Transformer::transform_identifier(P::IdentifierContext& ctx) {
  if (auto* quoted = ctx.QUOTED_IDENTIFIER()) {
    std::string name = strip_quotes(quoted->getText(), '"');
    if (name.empty()) throw_syntax_error(ctx.start, "zero-length quoted identifier");
    return name;
  }
  return lower_ascii(ctx.getText());
}

std::vector<std::string> Transformer::transform_identifiers(
    const std::vector<P::IdentifierContext*>& list) {
  std::vector<std::string> names;
  for (P::IdentifierContext* identifier : list) names.push_back(transform_identifier(*identifier));
  return names;
}

ast::TypeName Transformer::transform_type_name(P::TypeNameContext& ctx) {
  ast::TypeName type;
  if (P::IdentifierContext* other = ctx.identifier()) {
    type.name = upper_ascii(transform_identifier(*other));
  } else if (ctx.WITH() != nullptr) {
    type.name = "TIMESTAMPTZ";
  } else {
    type.name = canonical_type_name(ctx.start->getType(), ctx.VARYING() != nullptr);
  }
  for (antlr4::tree::TerminalNode* parameter : ctx.INTEGER_LITERAL()) {
    type.params.push_back(transform_type_parameter(*parameter));
  }
  type.location = location_of(ctx.start);
  return type;
}

int64_t Transformer::transform_type_parameter(antlr4::tree::TerminalNode& literal) {
  std::string digits = literal.getText();
  int64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) {
    throw_syntax_error(literal.getSymbol(), fmt::format("type parameter {} is too large", digits));
  }
  return value;
}

std::string Transformer::unquote_string(antlr4::Token& string_literal) {
  return strip_quotes(string_literal.getText(), '\'');
}

}  // namespace tally
