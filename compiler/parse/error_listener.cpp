#include "compiler/parse/error_listener.h"

#include <fmt/format.h>

#include <set>
#include <vector>

#include "TallySQLParser.h"
#include "compiler/parse/syntax_error.h"

namespace tally {
namespace {

using tally_grammar::TallySQLParser;

// Longer expectation lists (e.g. "any expression") say nothing useful.
constexpr size_t kMaxExpectedShown = 8;
constexpr size_t kMaxTokenTextShown = 40;

std::string describe_offending_token(const antlr4::Token& token) {
  switch (token.getType()) {
    case antlr4::Token::EOF:
      return "unexpected end of input";
    case TallySQLParser::UNTERMINATED_STRING_LITERAL:
      return "unterminated string literal";
    case TallySQLParser::UNTERMINATED_QUOTED_IDENTIFIER:
      return "unterminated quoted identifier";
    case TallySQLParser::UNTERMINATED_BLOCK_COMMENT:
      return "unterminated /* comment";
    case TallySQLParser::UNEXPECTED_CHARACTER:
      return fmt::format("unexpected character '{}'", token.getText());
    default:
      break;
  }
  std::string text = token.getText();
  if (text.size() > kMaxTokenTextShown) text = text.substr(0, kMaxTokenTextShown) + "...";
  bool quoted = token.getType() == TallySQLParser::STRING_LITERAL ||
                token.getType() == TallySQLParser::QUOTED_IDENTIFIER;
  return quoted ? fmt::format("unexpected {}", text) : fmt::format("unexpected '{}'", text);
}

bool is_unterminated(size_t token_type) {
  return token_type == TallySQLParser::UNTERMINATED_STRING_LITERAL ||
         token_type == TallySQLParser::UNTERMINATED_QUOTED_IDENTIFIER ||
         token_type == TallySQLParser::UNTERMINATED_BLOCK_COMMENT;
}

// How a token the parser wanted reads in a message.
std::string expected_token_name(const antlr4::dfa::Vocabulary& vocabulary, size_t type) {
  switch (type) {
    case antlr4::Token::EOF:
      return "end of input";
    case TallySQLParser::IDENTIFIER:
    case TallySQLParser::QUOTED_IDENTIFIER:
      return "a name";
    case TallySQLParser::STRING_LITERAL:
      return "a string";
    case TallySQLParser::INTEGER_LITERAL:
      return "an integer";
    case TallySQLParser::DECIMAL_LITERAL:
    case TallySQLParser::FLOAT_LITERAL:
      return "a number";
    default:
      break;
  }
  std::string name = vocabulary.getDisplayName(type);
  if (name.ends_with('_')) name.pop_back();  // NULL_: the grammar avoids the C macro
  return name;
}

// ANTLR's expectation lists what the current rule can take next. When a sub-rule has just
// ended after an optional part (`a INT` before `PRIMARY`, which could have been followed by
// NOT NULL), what that part could have taken is missing. So the list is trusted only when
// the token before the offending one was matched by the current rule itself, or by its
// nearest ancestor when the rules entered since have matched nothing.
bool expectation_is_complete(antlr4::Parser& parser, const antlr4::Token& offending_token) {
  if (parser.getCurrentToken() != &offending_token) return false;  // an error further ahead
  size_t index = offending_token.getTokenIndex();
  if (index == 0) return true;
  antlr4::Token* previous = parser.getTokenStream()->get(index - 1);
  // A rule's context joins its parent's children when the rule is entered.
  antlr4::tree::ParseTree* entered = nullptr;
  antlr4::tree::ParseTree* context = parser.getContext();
  while (context != nullptr) {
    std::vector<antlr4::tree::ParseTree*>& children = context->children;
    size_t matched = children.size() - (!children.empty() && children.back() == entered ? 1 : 0);
    if (matched > 0) {
      auto* last = dynamic_cast<antlr4::tree::TerminalNode*>(children[matched - 1]);
      return last != nullptr && last->getSymbol() == previous;
    }
    entered = context;
    context = context->parent;
  }
  return true;
}

// " (expected X, Y or Z)" when the parser's expectation is short enough to help.
std::string describe_expected(antlr4::Parser& parser) {
  antlr4::misc::IntervalSet expected = parser.getExpectedTokens();
  // Where a statement starts, the statements tally runs (not the keywords it knows only
  // to refuse them).
  if (expected.contains(size_t{TallySQLParser::SELECT}) &&
      expected.contains(size_t{TallySQLParser::CREATE})) {
    return " (expected a statement: SELECT, WITH, CREATE, DROP, INSERT, COPY, SET, RESET, SHOW, "
           "DESCRIBE or EXPLAIN)";
  }
  std::vector<ssize_t> types = expected.toList();
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (ssize_t type : types) {
    std::string name = expected_token_name(parser.getVocabulary(), static_cast<size_t>(type));
    if (seen.insert(name).second) names.push_back(name);
  }
  if (names.empty() || names.size() > kMaxExpectedShown) return "";
  std::string list = names.front();
  for (size_t i = 1; i < names.size(); ++i) {
    list += (i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return fmt::format(" (expected {})", list);
}

}  // namespace

void SyntaxErrorListener::syntaxError(antlr4::Recognizer* recognizer,
                                      antlr4::Token* offending_token, size_t line, size_t column,
                                      const std::string& antlr_message,
                                      std::exception_ptr /*exception*/) {
  SourceLocation location{static_cast<int>(line), static_cast<int>(column) + 1};
  // The lexer never fails (unknown characters become tokens); keep ANTLR's words if it does.
  std::string problem = antlr_message;
  if (offending_token != nullptr) {
    problem = describe_offending_token(*offending_token);
    auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
    if (parser != nullptr && !is_unterminated(offending_token->getType()) &&
        expectation_is_complete(*parser, *offending_token)) {
      problem += describe_expected(*parser);
    }
  }
  throw make_syntax_error(source_, location, problem);
}

}  // namespace tally
