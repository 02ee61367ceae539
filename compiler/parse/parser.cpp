// The ANTLR front end: lex, parse (fast SLL first, full LL only when SLL fails), transform.
#include "compiler/parse/parser.h"

#include <antlr4-runtime.h>

#include <memory>
#include <string>

#include "TallySQLLexer.h"
#include "TallySQLParser.h"
#include "compiler/parse/error_listener.h"
#include "compiler/parse/nesting_guard.h"
#include "compiler/parse/transformer.h"

namespace tally {
namespace {

using tally_grammar::TallySQLLexer;
using tally_grammar::TallySQLParser;

// SLL prediction is much faster and accepts almost every valid script; when it fails the
// script is parsed again with full LL, which alone reports errors (and exactly where).
TallySQLParser::ScriptContext* parse_tree(TallySQLParser& parser, SyntaxErrorListener& listener,
                                          NestingGuard& guard) {
  auto* simulator = parser.getInterpreter<antlr4::atn::ParserATNSimulator>();
  parser.removeErrorListeners();
  parser.addParseListener(&guard);
  simulator->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  try {
    return parser.script();
  } catch (const antlr4::ParseCancellationException&) {
  }
  parser.reset();
  guard.reset();
  parser.addErrorListener(&listener);
  simulator->setPredictionMode(antlr4::atn::PredictionMode::LL);
  parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
  return parser.script();
}

std::unique_ptr<antlr4::ANTLRInputStream> open_input(std::string_view sql) {
  try {
    return std::make_unique<antlr4::ANTLRInputStream>(std::string(sql));
  } catch (const std::exception&) {
    throw Error(ErrorKind::Syntax, "syntax error: the SQL text is not valid UTF-8");
  }
}

}  // namespace

std::vector<ast::Statement> parse_script(std::string_view sql) {
  std::unique_ptr<antlr4::ANTLRInputStream> input = open_input(sql);
  SyntaxErrorListener listener(sql);
  TallySQLLexer lexer(input.get());
  lexer.removeErrorListeners();
  lexer.addErrorListener(&listener);
  antlr4::CommonTokenStream tokens(&lexer);
  TallySQLParser parser(&tokens);
  NestingGuard guard(sql);
  TallySQLParser::ScriptContext* tree = parse_tree(parser, listener, guard);
  Transformer transformer(sql, tokens);
  return transformer.transform_script(*tree);
}

}  // namespace tally
