// SQL text -> AST: literals, calls, CASE and EXTRACT, lexical matters, the TPC-H queries and
// syntax errors with their line and column (statements and operators: parser_test.cpp).
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "compiler/parse/parser.h"
#include "tests/unit/support/parser_fixture.h"

using tally::Error;
using tally::ErrorKind;
using tally::parse_script;
namespace ast = tally::ast;
using namespace tally::parser_test;

// ---------------------------------------------------------------- literals

TEST_CASE("parser: numeric literals") {
  auto literal = [](const std::string& text) {
    ast::SelectStmt select = parse_select("SELECT " + text);
    REQUIRE(select.items.size() == 1);
    return std::move(select.items[0].expr);
  };
  ast::ExprPtr integer = literal("42");
  CHECK(integer->kind == ast::ExprKind::IntegerLiteral);
  CHECK(integer->text == "42");
  ast::ExprPtr huge = literal("123456789012345678901234567890");
  CHECK(huge->kind == ast::ExprKind::IntegerLiteral);
  CHECK(huge->text == "123456789012345678901234567890");
  for (const std::string text : {"12.50", ".5", "1."}) {
    CAPTURE(text);
    ast::ExprPtr decimal = literal(text);
    CHECK(decimal->kind == ast::ExprKind::DecimalLiteral);
    CHECK(decimal->text == text);
  }
  for (const std::string text : {"1.5e3", "1e10", "2.E-3", ".5e+2"}) {
    CAPTURE(text);
    ast::ExprPtr floating = literal(text);
    CHECK(floating->kind == ast::ExprKind::FloatLiteral);
    CHECK(floating->text == text);
  }
}

TEST_CASE("parser: string - boolean and NULL literals") {
  CHECK(expr_of("'it''s'") == "'it's'");
  CHECK(expr_of("''") == "''");
  CHECK(expr_of("'multi\nline'") == "'multi\nline'");
  CHECK(expr_of("'--not a comment'") == "'--not a comment'");
  CHECK(expr_of("TRUE") == "TRUE");
  CHECK(expr_of("false") == "FALSE");
  CHECK(expr_of("Null") == "NULL");
  ast::SelectStmt select = parse_select("SELECT 'a\"b'");
  CHECK(select.items[0].expr->text == "a\"b");
}

TEST_CASE("parser: DATE literals") {
  ast::SelectStmt select = parse_select("SELECT date '1998-12-01'");
  const ast::Expr& date = *select.items[0].expr;
  CHECK(date.kind == ast::ExprKind::DateLiteral);
  CHECK(date.text == "1998-12-01");
  CHECK(date.source_text == "date '1998-12-01'");
}

TEST_CASE("parser: INTERVAL with the unit as a keyword") {
  CHECK(expr_of("INTERVAL '90' DAY") == "INTERVAL(0mon 90d 0us)");
  CHECK(expr_of("interval '90' day (3)") == "INTERVAL(0mon 90d 0us)");
  CHECK(expr_of("INTERVAL '3' MONTHS") == "INTERVAL(3mon 0d 0us)");
  CHECK(expr_of("INTERVAL '1' YEAR") == "INTERVAL(12mon 0d 0us)");
  CHECK(expr_of("INTERVAL '-7' days") == "INTERVAL(0mon -7d 0us)");
  CHECK(expr_of("INTERVAL 2 YEARS") == "INTERVAL(24mon 0d 0us)");  // DuckDB
  CHECK(expr_of("date '1998-12-01' - interval '90' day (3)") ==
        "(- DATE'1998-12-01' INTERVAL(0mon 90d 0us))");
}

TEST_CASE("parser: INTERVAL with number and unit in the string") {
  CHECK(expr_of("INTERVAL '90 days'") == "INTERVAL(0mon 90d 0us)");
  CHECK(expr_of("INTERVAL '1 day'") == "INTERVAL(0mon 1d 0us)");
  CHECK(expr_of("INTERVAL '-3 months'") == "INTERVAL(-3mon 0d 0us)");
  CHECK(expr_of("INTERVAL ' 2   Year '") == "INTERVAL(24mon 0d 0us)");
  CHECK(expr_of("INTERVAL '10 YEARS'") == "INTERVAL(120mon 0d 0us)");
}

TEST_CASE("parser: malformed INTERVALs") {
  Failure no_unit = syntax_failure("SELECT INTERVAL '90'");
  CHECK(no_unit.column == 17);
  syntax_failure("SELECT INTERVAL 'x' DAY");
  syntax_failure("SELECT INTERVAL '1.5 days'");
  syntax_failure("SELECT INTERVAL '3 days' DAY");
  syntax_failure("SELECT INTERVAL '99999999999999999999 days'");
  syntax_failure("SELECT INTERVAL '1 day 2'");
  syntax_failure("SELECT INTERVAL '25:61'");
  Failure unit = parse_failure("SELECT INTERVAL '3 fortnights'");
  CHECK(unit.kind == ErrorKind::Unsupported);
  CHECK(unit.column == 17);
}

TEST_CASE("parser: parameters are numbered in text order per statement") {
  std::vector<ast::Statement> statements = parse_script(
      "SELECT ? + a FROM t WHERE b = ? AND c IN (?, ?) OFFSET ? LIMIT ?;\n"
      "INSERT INTO t VALUES (?, ?);\n"
      "SELECT 1");
  REQUIRE(statements.size() == 3);
  CHECK(statements[0].parameter_count == 6);
  const auto& select = std::get<ast::SelectStmt>(statements[0].body);
  CHECK(sexpr(*select.items[0].expr) == "(+ ?0 a)");
  CHECK(sexpr(*select.where) == "(AND (= b ?1) (IN c ?2 ?3))");
  CHECK(sexpr(*select.offset) == "?4");
  CHECK(sexpr(*select.limit) == "?5");
  CHECK(statements[1].parameter_count == 2);
  const auto& insert = std::get<ast::InsertStmt>(statements[1].body);
  CHECK(sexpr(*insert.rows[0][0]) == "?0");
  CHECK(sexpr(*insert.rows[0][1]) == "?1");
  CHECK(statements[2].parameter_count == 0);
}

// ---------------------------------------------------------------- calls, CASE, EXTRACT

TEST_CASE("parser: function calls") {
  CHECK(expr_of("count(*)") == "(COUNT *)");
  CHECK(expr_of("Sum(a)") == "(SUM a)");
  CHECK(expr_of("count(DISTINCT a)") == "(COUNT DISTINCT a)");
  CHECK(expr_of("mod(a, 3)") == "(MOD a 3)");
  CHECK(expr_of("coalesce(a, b, 0)") == "(COALESCE a b 0)");
  CHECK(expr_of("now()") == "(NOW)");
  CHECK(expr_of("sum(a * (1 - b))") == "(SUM (* a (- 1 b)))");
  CHECK(expr_of("round(avg(a), 2)") == "(ROUND (AVG a) 2)");
  CHECK(expr_of("year(d)") == "(YEAR d)");
  ast::SelectStmt select = parse_select("SELECT count(*)");
  CHECK(select.items[0].expr->star);
  CHECK(select.items[0].expr->children.empty());
}

TEST_CASE("parser: searched and simple CASE") {
  CHECK(expr_of("CASE WHEN a > 0 THEN 'pos' WHEN a < 0 THEN 'neg' ELSE 'zero' END") ==
        "(CASE (WHEN (> a 0) 'pos') (WHEN (< a 0) 'neg') (ELSE 'zero'))");
  CHECK(expr_of("case a when 1 then 'one' when 2 then 'two' end") ==
        "(CASE a (WHEN 1 'one') (WHEN 2 'two'))");
  CHECK(expr_of("CASE WHEN a THEN 1 END + 1") == "(+ (CASE (WHEN a 1)) 1)");
  ast::SelectStmt searched = parse_select("SELECT CASE WHEN a THEN 1 END");
  CHECK_FALSE(searched.items[0].expr->case_operand);
  CHECK_FALSE(searched.items[0].expr->else_expr);
  syntax_failure("SELECT CASE a END");
  syntax_failure("SELECT CASE WHEN a THEN 1");
}

TEST_CASE("parser: EXTRACT") {
  CHECK(expr_of("EXTRACT(YEAR FROM o_orderdate)") == "(EXTRACT YEAR o_orderdate)");
  CHECK(expr_of("extract(month from d + 1)") == "(EXTRACT MONTH (+ d 1))");
  CHECK(expr_of("Extract(Day From d)") == "(EXTRACT DAY d)");
  ast::SelectStmt select = parse_select("SELECT extract(year from d)");
  CHECK(select.items[0].expr->kind == ast::ExprKind::FunctionCall);
  CHECK(select.items[0].expr->name == "EXTRACT");
  syntax_failure("SELECT EXTRACT(d)");
}

// ---------------------------------------------------------------- lexical matters

TEST_CASE("parser: comments") {
  std::vector<ast::Statement> statements = parse_script(
      "-- leading comment\n"
      "SELECT a, -- trailing comment\n"
      "  /* block\n comment */ b\n"
      "FROM t /* inline */ WHERE a = 1; -- after the last statement");
  REQUIRE(statements.size() == 1);
  const auto& select = std::get<ast::SelectStmt>(statements[0].body);
  REQUIRE(select.items.size() == 2);
  CHECK(sexpr(*select.items[1].expr) == "b");
  CHECK(select.items[1].expr->location.line == 4);
  CHECK(select.items[1].expr->location.column == 13);
  CHECK(sexpr(*select.where) == "(= a 1)");
  CHECK(expr_of("1 -- one\n + 2") == "(+ 1 2)");
  CHECK(expr_of("1 /* a * b */ * 2") == "(* 1 2)");
}

TEST_CASE("parser: keywords are case-insensitive") {
  ast::SelectStmt select =
      parse_select("sElEcT DiStInCt A fRoM T wHeRe b Is NoT nUlL gRoUp By A oRdEr By A dEsC");
  CHECK(select.distinct);
  CHECK(select.from->name == "t");
  CHECK(sexpr(*select.where) == "(IS NOT NULL b)");
  REQUIRE(select.order_by.size() == 1);
  CHECK(select.order_by[0].descending);
}

TEST_CASE("parser: identifiers") {
  ast::SelectStmt select =
      parse_select("SELECT MyCol, \"MyCol\", \"with \"\"quotes\"\"\", \"select\" FROM \"MyTable\"");
  REQUIRE(select.items.size() == 4);
  CHECK(select.items[0].expr->name == "mycol");
  CHECK(select.items[1].expr->name == "MyCol");
  CHECK(select.items[2].expr->name == "with \"quotes\"");
  CHECK(select.items[3].expr->name == "select");
  CHECK(select.from->name == "MyTable");
  CHECK(expr_of("_x1$") == "_x1$");
  syntax_failure("SELECT \"\" FROM t");
}

TEST_CASE("parser: common column names that are keywords") {
  ast::SelectStmt select = parse_select(
      "SELECT year, month, day, date, format, header, delimiter, text, first, last, interval, "
      "timestamp, time, hour, minute, second, string, timestamptz "
      "FROM t WHERE year > 2000 ORDER BY date");
  const std::vector<std::string> names = {"year",     "month",     "day",        "date",  "format",
                                          "header",   "delimiter", "text",       "first", "last",
                                          "interval", "timestamp", "time",       "hour",  "minute",
                                          "second",   "string",    "timestamptz"};
  REQUIRE(select.items.size() == names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    CHECK(select.items[i].expr->kind == ast::ExprKind::ColumnRef);
    CHECK(select.items[i].expr->name == names[i]);
  }
  CHECK(sexpr(*select.where) == "(> year 2000)");
  auto create = parse_body<ast::CreateTableStmt>("CREATE TABLE date (date DATE, text TEXT)");
  CHECK(create.name == "date");
  CHECK(create.columns[0].name == "date");
  CHECK(create.columns[1].name == "text");
  CHECK(expr_of("EXTRACT(year FROM date)") == "(EXTRACT YEAR date)");
}

TEST_CASE("parser: expression locations and source text") {
  std::vector<ast::Statement> statements = parse_script(
      "SELECT\n  sum(l_extendedprice * (1 - l_discount)) AS revenue,\n  a   +  b\nFROM t");
  const auto& select = std::get<ast::SelectStmt>(statements[0].body);
  const ast::Expr& sum = *select.items[0].expr;
  CHECK(sum.location.line == 2);
  CHECK(sum.location.column == 3);
  CHECK(sum.source_text == "sum(l_extendedprice * (1 - l_discount))");
  const ast::Expr& product = *sum.children[0];
  CHECK(product.source_text == "l_extendedprice * (1 - l_discount)");
  CHECK(product.location.column == 7);
  const ast::Expr& difference = *product.children[1];
  CHECK(difference.source_text == "(1 - l_discount)");
  CHECK(difference.location.column == 25);
  CHECK(difference.children[1]->source_text == "l_discount");
  CHECK(difference.children[1]->location.column == 30);
  const ast::Expr& addition = *select.items[1].expr;
  CHECK(addition.source_text == "a   +  b");
  CHECK(addition.location.line == 3);
  CHECK(addition.children[1]->location.column == 10);
  ast::SelectStmt between = parse_select("SELECT x FROM t WHERE NOT a BETWEEN 1 AND 2");
  CHECK(between.where->source_text == "NOT a BETWEEN 1 AND 2");
  CHECK(between.where->children[0]->source_text == "a BETWEEN 1 AND 2");
  CHECK(between.where->children[0]->location.column == 27);
}

TEST_CASE("parser: non-ASCII text in strings - names and locations") {
  ast::SelectStmt select = parse_select("SELECT 'héllo', größe FROM t WHERE x = 'ü'");
  CHECK(select.items[0].expr->text == "héllo");
  CHECK(select.items[1].expr->name == "größe");
  CHECK(select.items[1].expr->location.column == 17);
  CHECK(select.where->source_text == "x = 'ü'");
  Failure after_umlaut = syntax_failure("SELECT 'ü' FROM");
  CHECK(after_umlaut.column == 16);
}

// ---------------------------------------------------------------- TPC-H

TEST_CASE("parser: TPC-H Q1") {
  const std::string q1 = R"(
-- TPC-H Query 1: pricing summary report
select
	l_returnflag,
	l_linestatus,
	sum(l_quantity) as sum_qty,
	sum(l_extendedprice) as sum_base_price,
	sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
	sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
	avg(l_quantity) as avg_qty,
	avg(l_extendedprice) as avg_price,
	avg(l_discount) as avg_disc,
	count(*) as count_order
from
	lineitem
where
	l_shipdate <= date '1998-12-01' - interval '90' day (3)
group by
	l_returnflag,
	l_linestatus
order by
	l_returnflag,
	l_linestatus;
)";
  std::vector<ast::Statement> statements = parse_script(q1);
  REQUIRE(statements.size() == 1);
  CHECK(statements[0].location.line == 3);
  CHECK(statements[0].text.starts_with("select\n"));
  CHECK(statements[0].text.ends_with("l_linestatus"));
  const auto& select = std::get<ast::SelectStmt>(statements[0].body);
  REQUIRE(select.items.size() == 10);
  const std::vector<std::string> aliases = {
      "",           "",        "sum_qty",   "sum_base_price", "sum_disc_price",
      "sum_charge", "avg_qty", "avg_price", "avg_disc",       "count_order"};
  for (size_t i = 0; i < aliases.size(); ++i) CHECK(select.items[i].alias == aliases[i]);
  CHECK(sexpr(*select.items[5].expr) ==
        "(SUM (* (* l_extendedprice (- 1 l_discount)) (+ 1 l_tax)))");
  CHECK(sexpr(*select.items[9].expr) == "(COUNT *)");
  CHECK(select.from->name == "lineitem");
  CHECK(sexpr(*select.where) == "(<= l_shipdate (- DATE'1998-12-01' INTERVAL(0mon 90d 0us)))");
  REQUIRE(select.group_by.size() == 2);
  CHECK(sexpr(*select.group_by[1]) == "l_linestatus");
  REQUIRE(select.order_by.size() == 2);
  CHECK(sexpr(*select.order_by[0].expr) == "l_returnflag");
  CHECK(statements[0].parameter_count == 0);
}

TEST_CASE("parser: TPC-H Q6") {
  ast::SelectStmt select = parse_select(R"(
select
	sum(l_extendedprice * l_discount) as revenue
from
	lineitem
where
	l_shipdate >= date '1994-01-01'
	and l_shipdate < date '1994-01-01' + interval '1' year
	and l_discount between .06 - 0.01 and .06 + 0.01
	and l_quantity < 24;
)");
  CHECK(sexpr(*select.where) ==
        "(AND (AND (AND (>= l_shipdate DATE'1994-01-01') "
        "(< l_shipdate (+ DATE'1994-01-01' INTERVAL(12mon 0d 0us)))) "
        "(BETWEEN l_discount (- .06 0.01) (+ .06 0.01))) (< l_quantity 24))");
}

// ---------------------------------------------------------------- errors

TEST_CASE("parser: a misspelt keyword") {
  Failure failure = syntax_failure("SELEC a FROM t");
  CHECK(failure.line == 1);
  CHECK(failure.column == 1);
  CHECK(contains(failure.message, "syntax error at line 1, column 1: unexpected 'SELEC'"));
  CHECK(contains(failure.message, "SELECT"));  // among the expected keywords
  Failure form = syntax_failure("SELECT *\n  FORM t");
  CHECK(form.line == 2);
  CHECK(form.column == 3);
  CHECK(contains(form.message, "unexpected 'FORM'"));
}

TEST_CASE("parser: the error message shows the line and a caret") {
  Failure failure = syntax_failure("SELECT a\nFROM t WHERE a = = 1\nORDER BY a");
  CHECK(failure.line == 2);
  CHECK(failure.column == 18);
  CHECK(failure.message ==
        "syntax error at line 2, column 18: unexpected '='\n"
        "FROM t WHERE a = = 1\n"
        "                 ^");
  Failure tabbed = syntax_failure("SELECT\n\ta +* b");
  CHECK(tabbed.column == 5);
  CHECK(contains(tabbed.message, "\n\ta +* b\n\t   ^"));
}

TEST_CASE("parser: a missing FROM target") {
  Failure failure = syntax_failure("SELECT a FROM");
  CHECK(failure.line == 1);
  CHECK(failure.column == 14);
  CHECK(contains(failure.message, "unexpected end of input"));
  Failure before_where = syntax_failure("SELECT a FROM WHERE a = 1");
  CHECK(before_where.column == 15);
  CHECK(contains(before_where.message, "unexpected 'WHERE'"));
}

TEST_CASE("parser: unbalanced parentheses") {
  Failure open = syntax_failure("SELECT sum(a FROM t");
  CHECK(open.column == 14);
  Failure nested = syntax_failure("select a,\n  b from t where ((a = 1)");
  CHECK(nested.line == 2);
  CHECK(nested.column == 26);  // the end of the text, just after the last ')'
  Failure extra = syntax_failure("SELECT (a)) FROM t");
  CHECK(extra.column == 11);
  CHECK(contains(extra.message, "unexpected ')'"));
}

TEST_CASE("parser: trailing garbage") {
  Failure failure = syntax_failure("SELECT a FROM t WHERE a = 1 garbage");
  CHECK(failure.column == 29);
  CHECK(contains(failure.message, "unexpected 'garbage'"));
  Failure after_limit = syntax_failure("SELECT a FROM t LIMIT 1 2");
  CHECK(after_limit.column == 25);
}

TEST_CASE("parser: unterminated strings - quoted names and comments") {
  Failure string = syntax_failure("SELECT a FROM t\nWHERE b = 'abc");
  CHECK(string.line == 2);
  CHECK(string.column == 11);
  CHECK(contains(string.message, "unterminated string literal"));
  Failure escaped = syntax_failure("SELECT 'it''s");
  CHECK(escaped.column == 8);
  CHECK(contains(escaped.message, "unterminated string literal"));
  Failure name = syntax_failure("SELECT \"abc FROM t");
  CHECK(name.column == 8);
  CHECK(contains(name.message, "unterminated quoted identifier"));
  Failure comment = syntax_failure("SELECT 1 /* not closed *");
  CHECK(comment.column == 10);
  CHECK(contains(comment.message, "unterminated /* comment"));
  // Well-formed neighbours lex as usual.
  CHECK(expr_of("1 /**/ + /* * / */ 2") == "(+ 1 2)");
}

TEST_CASE("parser: text that is not UTF-8") {
  Failure failure = syntax_failure("SELECT '\xff'");
  CHECK(contains(failure.message, "not valid UTF-8"));
}

TEST_CASE("parser: characters outside SQL") {
  Failure failure = syntax_failure("SELECT a # b FROM t");
  CHECK(failure.column == 10);
  CHECK(contains(failure.message, "unexpected character '#'"));
  Failure bang = syntax_failure("SELECT a ! b");
  CHECK(bang.column == 10);
}

TEST_CASE("parser: not supported constructs say so") {
  const std::vector<std::pair<std::string, int>> cases = {
      {"SELECT a FROM t JOIN u ON t.x = u.x", 17},
      {"SELECT a FROM t LEFT OUTER JOIN u USING (x)", 17},
      {"SELECT a FROM t, u", 16},
      {"WITH RECURSIVE x AS (SELECT 1) SELECT * FROM x", 6},
      {"SELECT * FROM unnest(t)", 15},
      {"SELECT rank() OVER (PARTITION BY a ORDER BY b) FROM t", 15},
  };
  for (const auto& [sql, column] : cases) {
    CAPTURE(sql);
    Failure failure = parse_failure(sql);
    CHECK(failure.kind == ErrorKind::Unsupported);
    CHECK(contains(failure.message, "not supported"));
    CHECK(failure.line == 1);
    CHECK(failure.column == column);
  }
}

TEST_CASE("parser: a 100-statement script parses quickly") {
  std::string script;
  for (int i = 0; i < 100; ++i) {
    script +=
        "SELECT l_returnflag, sum(l_quantity * (1 - l_discount)) AS s, count(*) FROM lineitem "
        "WHERE l_shipdate <= date '1998-12-01' - interval '" +
        std::to_string(i) +
        "' day AND l_discount BETWEEN 0.05 AND 0.07 AND l_tax IN (1, 2, ?) "
        "GROUP BY l_returnflag HAVING count(*) > 1 ORDER BY 2 DESC LIMIT 10;\n";
  }
  auto start = std::chrono::steady_clock::now();
  std::vector<ast::Statement> statements = parse_script(script);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(statements.size() == 100);
  CHECK(statements[99].location.line == 100);
  CHECK(statements[42].parameter_count == 1);
  CHECK(sexpr(*std::get<ast::SelectStmt>(statements[7].body).where->children[0]->children[0]) ==
        "(<= l_shipdate (- DATE'1998-12-01' INTERVAL(0mon 7d 0us)))");
  CHECK(seconds < 0.5);
}
