// SQL text -> AST: scripts, CREATE/DROP, COPY/INSERT, the SELECT clauses and operators.
// Expression trees are compared as S-expressions written by hand from the SQL precedence rules
// (literals, calls, lexical matters, TPC-H and errors: parser_values_test.cpp).
#include "compiler/parse/parser.h"

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/unit/support/parser_fixture.h"

using tally::Error;
using tally::ErrorKind;
using tally::parse_script;
namespace ast = tally::ast;
using namespace tally::parser_test;

// ---------------------------------------------------------------- scripts

TEST_CASE("parser: empty scripts and empty statements yield nothing") {
  CHECK(parse_script("").empty());
  CHECK(parse_script("  \n\t ").empty());
  CHECK(parse_script(";;;").empty());
  CHECK(parse_script("-- only a comment\n/* and another */").empty());
  CHECK(parse_script(";SELECT 1;;SELECT 2;;").size() == 2);
}

TEST_CASE("parser: the last semicolon is optional") {
  CHECK(parse_script("SELECT 1").size() == 1);
  CHECK(parse_script("SELECT 1;").size() == 1);
  CHECK(parse_script("SELECT 1; SELECT 2").size() == 2);
}

TEST_CASE("parser: the warm-up statements parse - from two threads at once too") {
  // The CLI warms ANTLR's caches on a thread while it loads data; the user's statement may
  // be parsed beside it.
  size_t beside = 0;
  std::thread other([&] { beside = tally::warm_up_parser(); });
  CHECK(tally::warm_up_parser() == 12);  // every shape parses
  other.join();
  CHECK(beside == 12);
}

TEST_CASE("parser: statement text and location") {
  std::vector<ast::Statement> statements =
      parse_script("SELECT 1 ;\n  -- comment\n  DROP TABLE t;\n\nSELECT a\nFROM t");
  REQUIRE(statements.size() == 3);
  CHECK(statements[0].text == "SELECT 1");
  CHECK(statements[0].location.line == 1);
  CHECK(statements[0].location.column == 1);
  CHECK(statements[1].text == "DROP TABLE t");
  CHECK(statements[1].location.line == 3);
  CHECK(statements[1].location.column == 3);
  CHECK(statements[2].text == "SELECT a\nFROM t");
  CHECK(statements[2].location.line == 5);
}

TEST_CASE("parser: statements must be separated by semicolons") {
  Failure failure = syntax_failure("SELECT 1 SELECT 2");
  CHECK(failure.line == 1);
  CHECK(failure.column == 10);
}

// ---------------------------------------------------------------- CREATE / DROP

TEST_CASE("parser: CREATE TABLE with columns - types and nullability") {
  auto create = parse_body<ast::CreateTableStmt>(
      "CREATE TABLE Lineitem (l_orderkey BIGINT NOT NULL, l_comment VARCHAR(44) NULL,\n"
      "  l_price DECIMAL(15,2), l_date DATE)");
  CHECK(create.name == "lineitem");
  CHECK_FALSE(create.if_not_exists);
  REQUIRE(create.columns.size() == 4);
  CHECK(create.columns[0].name == "l_orderkey");
  CHECK(type_text(create.columns[0].type) == "BIGINT");
  CHECK(create.columns[0].not_null);
  CHECK(create.columns[1].name == "l_comment");
  CHECK(type_text(create.columns[1].type) == "VARCHAR(44)");
  CHECK_FALSE(create.columns[1].not_null);
  CHECK(type_text(create.columns[2].type) == "DECIMAL(15,2)");
  CHECK_FALSE(create.columns[2].not_null);
  CHECK(type_text(create.columns[3].type) == "DATE");
  CHECK(create.columns[2].location.line == 2);
  CHECK(create.columns[2].location.column == 3);
  CHECK(create.columns[2].type.location.column == 11);
}

TEST_CASE("parser: CREATE TABLE IF NOT EXISTS") {
  auto create = parse_body<ast::CreateTableStmt>("create table if not exists t (a int)");
  CHECK(create.if_not_exists);
  CHECK(create.name == "t");
  REQUIRE(create.columns.size() == 1);
  CHECK(type_text(create.columns[0].type) == "INTEGER");
}

TEST_CASE("parser: type name aliases are canonical") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"SMALLINT", "SMALLINT"},
      {"INT2", "SMALLINT"},
      {"INTEGER", "INTEGER"},
      {"INT", "INTEGER"},
      {"INT4", "INTEGER"},
      {"BIGINT", "BIGINT"},
      {"INT8", "BIGINT"},
      {"REAL", "REAL"},
      {"FLOAT4", "REAL"},
      {"DOUBLE", "DOUBLE"},
      {"DOUBLE PRECISION", "DOUBLE"},
      {"FLOAT", "DOUBLE"},
      {"FLOAT8", "DOUBLE"},
      {"DECIMAL", "DECIMAL"},
      {"DECIMAL(12)", "DECIMAL(12)"},
      {"DECIMAL(12, 2)", "DECIMAL(12,2)"},
      {"NUMERIC(10,3)", "DECIMAL(10,3)"},
      {"NUMERIC", "DECIMAL"},
      {"DATE", "DATE"},
      {"CHAR(1)", "CHAR(1)"},
      {"CHARACTER(25)", "CHAR(25)"},
      {"CHAR", "CHAR"},
      {"VARCHAR(10)", "VARCHAR(10)"},
      {"VARCHAR", "VARCHAR"},
      {"CHARACTER VARYING(79)", "VARCHAR(79)"},
      {"character varying", "VARCHAR"},
      {"TEXT", "VARCHAR"},
      {"BOOLEAN", "BOOLEAN"},
      {"BOOL", "BOOLEAN"},
  };
  for (const auto& [written, canonical] : cases) {
    CAPTURE(written);
    auto create = parse_body<ast::CreateTableStmt>("CREATE TABLE t (c " + written + " NOT NULL)");
    REQUIRE(create.columns.size() == 1);
    CHECK(type_text(create.columns[0].type) == canonical);
    CHECK(create.columns[0].not_null);
  }
}

TEST_CASE("parser: CREATE TABLE rejects constraints and unknown types") {
  Failure primary_key = syntax_failure("CREATE TABLE t (a INT PRIMARY KEY)");
  CHECK(primary_key.line == 1);
  CHECK(primary_key.column == 23);
  CHECK(contains(primary_key.message, "unexpected 'PRIMARY'"));
  Failure table_constraint = syntax_failure("CREATE TABLE t (a INT, PRIMARY KEY (a))");
  // PRIMARY reads as a column name and KEY as its type's name: the parenthesis is unexpected.
  CHECK(table_constraint.column == 36);
  // An unknown type name parses; the binder refuses it by name (tests/sql/types/type_names.test).
  CHECK(parse_body<ast::CreateTableStmt>("CREATE TABLE t (a BLOB)").columns[0].type.name == "BLOB");
  syntax_failure("CREATE TABLE t (a INT DEFAULT 0)");
  syntax_failure("CREATE TABLE t ()");
  syntax_failure("CREATE TABLE t (a DECIMAL(1,2,3))");
}

TEST_CASE("parser: DROP TABLE") {
  auto drop = parse_body<ast::DropTableStmt>("DROP TABLE Orders");
  CHECK(drop.name == "orders");
  CHECK_FALSE(drop.if_exists);
  auto drop_if = parse_body<ast::DropTableStmt>("drop table if exists \"Orders\"");
  CHECK(drop_if.name == "Orders");
  CHECK(drop_if.if_exists);
  Failure missing_table = syntax_failure("DROP t");
  CHECK(missing_table.column == 6);
  CHECK(contains(missing_table.message, "(expected TABLE)"));
}

// ---------------------------------------------------------------- COPY / INSERT

TEST_CASE("parser: COPY without options") {
  auto copy = parse_body<ast::CopyStmt>("COPY lineitem FROM '/data/lineitem.tbl'");
  CHECK(copy.table == "lineitem");
  CHECK(copy.path == "/data/lineitem.tbl");
  CHECK(copy.options.empty());
}

TEST_CASE("parser: COPY options are lower-cased and booleans normalised") {
  auto copy = parse_body<ast::CopyStmt>(
      "COPY t FROM 'it''s.csv' WITH (DELIMITER '|', Header TRUE, NULL 'NA', FORMAT CSV)");
  CHECK(copy.path == "it's.csv");
  CHECK(copy.options.size() == 4);
  CHECK(copy.options.at("delimiter") == "|");
  CHECK(copy.options.at("header") == "true");
  CHECK(copy.options.at("null") == "NA");
  CHECK(copy.options.at("format") == "csv");
}

TEST_CASE("parser: COPY HEADER accepts the PostgreSQL boolean spellings") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"HEADER", "true"},    {"HEADER true", "true"},   {"HEADER on", "true"},
      {"HEADER 1", "true"},  {"HEADER false", "false"}, {"HEADER OFF", "false"},
      {"HEADER 0", "false"},
  };
  for (const auto& [option, value] : cases) {
    CAPTURE(option);
    auto copy = parse_body<ast::CopyStmt>("COPY t FROM 'f' (" + option + ")");
    CHECK(copy.options.at("header") == value);
  }
  syntax_failure("COPY t FROM 'f' (HEADER 2)");
  syntax_failure("COPY t FROM 'f' (HEADER yes)");
}

TEST_CASE("parser: COPY options without WITH - FORMAT text - and duplicates") {
  auto copy = parse_body<ast::CopyStmt>("copy t from 'f.txt' (format text, delimiter ',')");
  CHECK(copy.options.at("format") == "text");
  CHECK(copy.options.at("delimiter") == ",");
  // DuckDB also writes the format as a string.
  auto quoted = parse_body<ast::CopyStmt>("COPY t FROM 'f' (FORMAT 'csv', HEADER)");
  CHECK(quoted.options.at("format") == "csv");
  CHECK(quoted.options.at("header") == "true");
  Failure duplicate = syntax_failure("COPY t FROM 'f' (HEADER, HEADER false)");
  CHECK(duplicate.column == 26);
  Failure parquet = parse_failure("COPY t FROM 'f' (FORMAT parquet)");
  CHECK(parquet.kind == ErrorKind::Unsupported);
  syntax_failure("COPY t FROM 'f' (QUOTE '\"')");
  syntax_failure("COPY t FROM f");
}

TEST_CASE("parser: INSERT with a column list and several rows") {
  auto insert = parse_body<ast::InsertStmt>(
      "INSERT INTO T (A, \"B\") VALUES (1, 'x'), (-2, NULL), (?, DATE '2020-02-29')");
  CHECK(insert.table == "t");
  CHECK(insert.columns == std::vector<std::string>{"a", "B"});
  REQUIRE(insert.rows.size() == 3);
  REQUIRE(insert.rows[0].size() == 2);
  CHECK(sexpr(*insert.rows[0][0]) == "1");
  CHECK(sexpr(*insert.rows[0][1]) == "'x'");
  CHECK(sexpr(*insert.rows[1][0]) == "(- 2)");
  CHECK(sexpr(*insert.rows[1][1]) == "NULL");
  CHECK(sexpr(*insert.rows[2][0]) == "?0");
  CHECK(sexpr(*insert.rows[2][1]) == "DATE'2020-02-29'");
}

TEST_CASE("parser: INSERT without a column list") {
  auto insert = parse_body<ast::InsertStmt>("insert into t values (1.5)");
  CHECK(insert.columns.empty());
  REQUIRE(insert.rows.size() == 1);
  CHECK(insert.rows[0][0]->kind == ast::ExprKind::DecimalLiteral);
  Failure no_parens = syntax_failure("INSERT INTO t VALUES 1");
  CHECK(no_parens.column == 22);
  // VALUES may also start a query (VALUES (1) UNION ...), so no one token is expected.
  CHECK(contains(no_parens.message, "unexpected '1'"));
}

// ---------------------------------------------------------------- SELECT clauses

TEST_CASE("parser: SELECT without FROM") {
  ast::SelectStmt select = parse_select("SELECT 1, 'a'");
  CHECK_FALSE(select.from.has_value());
  REQUIRE(select.items.size() == 2);
  CHECK(sexpr(*select.items[0].expr) == "1");
  CHECK(select.items[1].expr->kind == ast::ExprKind::StringLiteral);
  CHECK_FALSE(select.distinct);
  CHECK_FALSE(select.where);
  CHECK(select.group_by.empty());
  CHECK_FALSE(select.limit);
}

TEST_CASE("parser: SELECT star and aliases") {
  ast::SelectStmt select = parse_select("SELECT *, a AS x, b y, c + 1 AS \"Total\", d year FROM t");
  REQUIRE(select.items.size() == 5);
  CHECK(select.items[0].star);
  CHECK_FALSE(select.items[0].expr);
  CHECK(select.items[0].location.column == 8);
  CHECK(select.items[1].alias == "x");
  CHECK(select.items[2].alias == "y");
  CHECK(select.items[3].alias == "Total");
  CHECK(sexpr(*select.items[3].expr) == "(+ c 1)");
  CHECK(select.items[4].alias == "year");
  CHECK(select.items[1].location.column == 11);
  CHECK(select.items[1].alias.empty() == false);
}

TEST_CASE("parser: SELECT DISTINCT") {
  CHECK(parse_select("SELECT DISTINCT a FROM t").distinct);
  CHECK_FALSE(parse_select("SELECT ALL a FROM t").distinct);
}

TEST_CASE("parser: FROM with and without an alias") {
  ast::SelectStmt plain = parse_select("SELECT a FROM Orders");
  REQUIRE(plain.from);
  CHECK(plain.from->name == "orders");
  CHECK(plain.from->alias.empty());
  CHECK(plain.from->location.column == 15);
  ast::SelectStmt with_as = parse_select("SELECT o.a FROM orders AS o");
  CHECK(with_as.from->alias == "o");
  CHECK(sexpr(*with_as.items[0].expr) == "o.a");
  CHECK(with_as.items[0].expr->qualifier == "o");
  CHECK(with_as.items[0].expr->name == "a");
  ast::SelectStmt bare = parse_select("SELECT O.A FROM orders o WHERE o.b = 1");
  CHECK(bare.from->alias == "o");
  CHECK(sexpr(*bare.items[0].expr) == "o.a");
}

TEST_CASE("parser: WHERE - GROUP BY and HAVING") {
  ast::SelectStmt select =
      parse_select("SELECT k, sum(v) FROM t WHERE v > 0 GROUP BY k, k % 2 HAVING count(*) > 1");
  REQUIRE(select.where);
  CHECK(sexpr(*select.where) == "(> v 0)");
  REQUIRE(select.group_by.size() == 2);
  CHECK(sexpr(*select.group_by[0]) == "k");
  CHECK(sexpr(*select.group_by[1]) == "(% k 2)");
  REQUIRE(select.having);
  CHECK(sexpr(*select.having) == "(> (COUNT *) 1)");
}

TEST_CASE("parser: ORDER BY directions and NULLS placement") {
  ast::SelectStmt select =
      parse_select("SELECT a FROM t ORDER BY a, b DESC, c ASC NULLS FIRST, d DESC NULLS LAST, 2");
  REQUIRE(select.order_by.size() == 5);
  CHECK(sexpr(*select.order_by[0].expr) == "a");
  CHECK_FALSE(select.order_by[0].descending);
  CHECK_FALSE(select.order_by[0].nulls_first.has_value());
  CHECK(select.order_by[1].descending);
  CHECK_FALSE(select.order_by[1].nulls_first.has_value());
  CHECK_FALSE(select.order_by[2].descending);
  CHECK(select.order_by[2].nulls_first == std::optional<bool>(true));
  CHECK(select.order_by[3].descending);
  CHECK(select.order_by[3].nulls_first == std::optional<bool>(false));
  CHECK(select.order_by[4].expr->kind == ast::ExprKind::IntegerLiteral);
  Failure missing_by = syntax_failure("SELECT a FROM t ORDER a");
  CHECK(missing_by.column == 23);
}

TEST_CASE("parser: LIMIT and OFFSET in either order") {
  ast::SelectStmt both = parse_select("SELECT a FROM t LIMIT 10 OFFSET 5");
  REQUIRE(both.limit);
  REQUIRE(both.offset);
  CHECK(sexpr(*both.limit) == "10");
  CHECK(sexpr(*both.offset) == "5");
  ast::SelectStmt reversed = parse_select("SELECT a FROM t OFFSET 3 LIMIT 4");
  CHECK(sexpr(*reversed.limit) == "4");
  CHECK(sexpr(*reversed.offset) == "3");
  ast::SelectStmt limit_only = parse_select("SELECT a FROM t LIMIT ?");
  CHECK(sexpr(*limit_only.limit) == "?0");
  CHECK_FALSE(limit_only.offset);
  ast::SelectStmt offset_only = parse_select("SELECT a FROM t OFFSET 1");
  CHECK_FALSE(offset_only.limit);
  CHECK(sexpr(*offset_only.offset) == "1");
}

// ---------------------------------------------------------------- operators

TEST_CASE("parser: arithmetic precedence and associativity") {
  CHECK(expr_of("1 + 2 * 3") == "(+ 1 (* 2 3))");
  CHECK(expr_of("1 * 2 + 3") == "(+ (* 1 2) 3)");
  CHECK(expr_of("(1 + 2) * 3") == "(* (+ 1 2) 3)");
  CHECK(expr_of("a - b - c") == "(- (- a b) c)");
  CHECK(expr_of("a / b * c % d") == "(% (* (/ a b) c) d)");
  CHECK(expr_of("a - (b - c)") == "(- a (- b c))");
}

TEST_CASE("parser: boolean precedence") {
  CHECK(where_of("a OR b AND c") == "(OR a (AND b c))");
  CHECK(where_of("a AND b OR c") == "(OR (AND a b) c)");
  CHECK(where_of("NOT a = b") == "(NOT (= a b))");
  CHECK(where_of("NOT a AND b") == "(AND (NOT a) b)");
  CHECK(where_of("NOT NOT a") == "(NOT (NOT a))");
  CHECK(where_of("(a OR b) AND c") == "(AND (OR a b) c)");
  CHECK(where_of("a = 1 OR b < 2 AND c >= 3") == "(OR (= a 1) (AND (< b 2) (>= c 3)))");
}

TEST_CASE("parser: comparison operators") {
  CHECK(where_of("a = 1") == "(= a 1)");
  CHECK(where_of("a <> 1") == "(<> a 1)");
  CHECK(where_of("a != 1") == "(<> a 1)");
  CHECK(where_of("a == 1") == "(= a 1)");
  CHECK(where_of("a < 1") == "(< a 1)");
  CHECK(where_of("a <= 1") == "(<= a 1)");
  CHECK(where_of("a > 1") == "(> a 1)");
  CHECK(where_of("a >= 1") == "(>= a 1)");
  CHECK(where_of("a + 1 > b * 2") == "(> (+ a 1) (* b 2))");
}

TEST_CASE("parser: BETWEEN binds its own AND") {
  CHECK(where_of("a BETWEEN 1 AND 2") == "(BETWEEN a 1 2)");
  CHECK(where_of("a NOT BETWEEN 1 AND 2") == "(NOT BETWEEN a 1 2)");
  CHECK(where_of("a BETWEEN 1 AND 2 AND b") == "(AND (BETWEEN a 1 2) b)");
  CHECK(where_of("a BETWEEN b - 1 AND b + 1") == "(BETWEEN a (- b 1) (+ b 1))");
  CHECK(where_of("NOT a BETWEEN 1 AND 2") == "(NOT (BETWEEN a 1 2))");
  syntax_failure("SELECT a BETWEEN 1 FROM t");
}

TEST_CASE("parser: IN lists") {
  CHECK(where_of("a IN (1, 2, 3)") == "(IN a 1 2 3)");
  CHECK(where_of("a NOT IN ('x')") == "(NOT IN a 'x')");
  CHECK(where_of("a + 1 IN (b, c * 2) AND d") == "(AND (IN (+ a 1) b (* c 2)) d)");
  Failure empty = syntax_failure("SELECT a FROM t WHERE a IN ()");
  CHECK(empty.column == 29);
}

TEST_CASE("parser: LIKE and IS NULL") {
  CHECK(where_of("a LIKE 'x%'") == "(LIKE a 'x%')");
  CHECK(where_of("a NOT LIKE '%y'") == "(NOT LIKE a '%y')");
  CHECK(where_of("a IS NULL") == "(IS NULL a)");
  CHECK(where_of("a IS NOT NULL") == "(IS NOT NULL a)");
  CHECK(where_of("a + 1 IS NULL OR b") == "(OR (IS NULL (+ a 1)) b)");
  CHECK(where_of("a || 'x' LIKE b") == "(LIKE (|| a 'x') b)");
}

TEST_CASE("parser: concatenation binds looser than arithmetic") {
  CHECK(expr_of("a || b + 1") == "(|| a (+ b 1))");
  CHECK(expr_of("'a' || 'b' || 'c'") == "(|| (|| 'a' 'b') 'c')");
  CHECK(where_of("a || b = 'ab'") == "(= (|| a b) 'ab')");
}

TEST_CASE("parser: unary operators") {
  CHECK(expr_of("-a") == "(- a)");
  CHECK(expr_of("+a") == "(+ a)");
  CHECK(expr_of("- -a") == "(- (- a))");
  CHECK(expr_of("-2 * 3") == "(* (- 2) 3)");
  CHECK(expr_of("1 - -2") == "(- 1 (- 2))");
  CHECK(expr_of("-a::INT") == "(- (CAST a INTEGER))");
}

TEST_CASE("parser: casts in both syntaxes") {
  CHECK(expr_of("CAST(a AS DECIMAL(10,2))") == "(CAST a DECIMAL(10,2))");
  CHECK(expr_of("cast(a + 1 as bigint)") == "(CAST (+ a 1) BIGINT)");
  CHECK(expr_of("a::text") == "(CAST a VARCHAR)");
  CHECK(expr_of("a::int::double precision") == "(CAST (CAST a INTEGER) DOUBLE)");
  CHECK(expr_of("a + b::numeric(5,1)") == "(+ a (CAST b DECIMAL(5,1)))");
  CHECK(expr_of("(a + b)::real") == "(CAST (+ a b) REAL)");
  CHECK(expr_of("'2020-01-01'::date") == "(CAST '2020-01-01' DATE)");
  ast::SelectStmt aliased = parse_select("SELECT a::double precision b, c::character varying(3) d");
  CHECK(sexpr(*aliased.items[0].expr) == "(CAST a DOUBLE)");
  CHECK(aliased.items[0].alias == "b");
  CHECK(sexpr(*aliased.items[1].expr) == "(CAST c VARCHAR(3))");
  CHECK(aliased.items[1].alias == "d");
  ast::SelectStmt select = parse_select("SELECT CAST(x AS varchar(3))");
  CHECK(select.items[0].expr->cast_type.location.column == 18);
  syntax_failure("SELECT CAST(a AS INT FROM t");
  CHECK(expr_of("CAST(a AS blob)") == "(CAST a BLOB)");  // refused by the binder
}
