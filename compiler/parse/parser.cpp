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

namespace {

// Generic statements over a table t, each phrase of the grammar a user's aggregate SQL
// commonly takes: ANTLR caches its predictions per sequence of token types, so a user's
// first statement is predicted from these caches wherever its phrases are among them. Upper
// and lower case: the lexer's caches are per character.
constexpr std::string_view kShapes[] = {
    "SELECT a, b % 7 AS g, COUNT(*), SUM(c * (1 - d) * (1 + e)) AS s, AVG(f), MIN(g), MAX(h) "
    "FROM t WHERE i <= DATE '1998-12-01' - INTERVAL '90' DAY (3) AND j BETWEEN 0.05 AND 0.07 "
    "AND k IN ('A', 'B') AND l LIKE '%x%' AND m IS NOT NULL AND n <> 3 "
    "GROUP BY a, g HAVING COUNT(*) > 1 ORDER BY 1, 2 DESC LIMIT 10;",
    "select a, b % 7 as g, count(*), sum(c * (1 - d) * (1 + e)) as s, avg(f), min(g), max(h) "
    "from t where i <= date '1998-12-01' - interval '90' day (3) and j between 0.05 and 0.07 "
    "and k in ('a', 'b') and l like '%x%' and m is not null and n <> 3 "
    "group by a, g having count(*) > 1 order by 1, 2 desc limit 10;",
    "SELECT CASE WHEN x < 10 THEN 'small' ELSE 'large' END AS size, CAST(y AS DECIMAL(12, 2)), "
    "EXTRACT(YEAR FROM z), COALESCE(u, 0), COUNT(DISTINCT v) FROM t GROUP BY 1, 2, 3, 4;",
    "SELECT SUM(a * b) AS r FROM t WHERE c >= DATE '1994-01-01' AND c < DATE '1994-01-01' + "
    "INTERVAL '1' YEAR AND d BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND e < 24;",
    "select sum(a * b) as r from t where c >= date '1994-01-01' and c < date '1994-01-01' + "
    "interval '1' year and d between 0.06 - 0.01 and 0.06 + 0.01 and e < 24;",
    "SELECT a % 3 AS k, CAST(SUM(b) AS BIGINT) AS q, ROUND(AVG(c) * 100, 3) AS p, "
    "ABS(MIN(d) - MAX(d)) AS s, COALESCE(MAX(e), 'none') AS x FROM t WHERE a <> 4 "
    "GROUP BY a % 3 ORDER BY k;",
    "SELECT EXTRACT(MONTH FROM a) AS m, COUNT(*) AS n, ROUND(AVG(b), 2) AS p FROM t "
    "WHERE a >= CAST(? AS DATE) AND a < CAST(? AS DATE) + INTERVAL '6' MONTH GROUP BY 1 "
    "ORDER BY 1;",
    "SELECT DISTINCT a, b FROM t WHERE NOT (c = 1 OR d != 2) AND e IS NULL ORDER BY a NULLS "
    "LAST, b DESC LIMIT 5 OFFSET 2;",
    "SELECT a, COUNT(DISTINCT b) AS n, STDDEV(c), VARIANCE(d), SUM(CASE WHEN e = 'R' THEN 1 "
    "ELSE 0 END) AS r FROM t WHERE f NOT LIKE '%AIR' AND g NOT IN (1, 2) GROUP BY a ORDER BY "
    "n DESC;",
    "SELECT MOD(a, ?) AS b, COUNT(*) AS n, 1 - AVG((c - d) / e) AS x FROM t GROUP BY 1 "
    "ORDER BY 1;",
    "select distinct a, b from t where not (c = 1 or d != 2) and e is null order by a nulls "
    "last, b desc limit 5 offset 2;",
    "select a, count(distinct b) as n, stddev(c), variance(d), sum(case when e = 'R' then 1 "
    "else 0 end) as r from t where f not like '%AIR' and g not in (1, 2) group by a order by "
    "n desc;",
};

}  // namespace

size_t warm_up_parser() {
  size_t parsed = 0;
  for (std::string_view shape : kShapes) {
    try {
      parsed += parse_script(shape).size();
    } catch (const Error&) {
      // A shape this grammar does not take warms nothing; the others still do.
    }
  }
  return parsed;
}

}  // namespace tally
