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

size_t warm_up_parser() {
  // Upper and lower case: the lexer's caches are per character.
  static constexpr std::string_view kShapes =
      "SELECT a, b % 7 AS g, COUNT(*), SUM(c * (1 - d) * (1 + e)) AS s, AVG(f), MIN(g), MAX(h) "
      "FROM t WHERE i <= DATE '1998-12-01' - INTERVAL '90' DAY (3) AND j BETWEEN 0.05 AND 0.07 "
      "AND k IN ('A', 'B') AND l LIKE '%x%' AND m IS NOT NULL AND n <> 3 "
      "GROUP BY a, g HAVING COUNT(*) > 1 ORDER BY 1, 2 DESC LIMIT 10;\n"
      "select a, b % 7 as g, count(*), sum(c * (1 - d) * (1 + e)) as s, avg(f), min(g), max(h) "
      "from t where i <= date '1998-12-01' - interval '90' day (3) and j between 0.05 and 0.07 "
      "and k in ('a', 'b') and l like '%x%' and m is not null and n <> 3 "
      "group by a, g having count(*) > 1 order by 1, 2 desc limit 10;\n"
      "SELECT CASE WHEN x < 10 THEN 'small' ELSE 'large' END AS size, CAST(y AS DECIMAL(12, 2)), "
      "EXTRACT(YEAR FROM z), COALESCE(u, 0), COUNT(DISTINCT v) FROM t GROUP BY 1, 2, 3, 4;";
  try {
    return parse_script(kShapes).size();
  } catch (const Error&) {
    return 0;
  }
}

}  // namespace tally
