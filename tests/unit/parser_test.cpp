// SQL text -> AST. Expression trees are compared as S-expressions written by hand from the
// SQL precedence rules, e.g. "1 + 2 * 3" must read "(+ 1 (* 2 3))".
#include "compiler/parse/parser.h"

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

namespace {

using tally::Error;
using tally::ErrorKind;
using tally::parse_script;
namespace ast = tally::ast;

std::string type_text(const ast::TypeName& type) {
  std::string text = type.name;
  for (size_t i = 0; i < type.params.size(); ++i) {
    text += (i == 0 ? "(" : ",") + std::to_string(type.params[i]);
  }
  return type.params.empty() ? text : text + ")";
}

std::string sexpr(const ast::Expr& e);

std::string sexpr_children(const ast::Expr& e, size_t from = 0) {
  std::string text;
  for (size_t i = from; i < e.children.size(); ++i) text += " " + sexpr(*e.children[i]);
  return text;
}

std::string interval_text(const ast::Expr& e) {
  return "INTERVAL(" + std::to_string(e.interval_months) + "mon " +
         std::to_string(e.interval_days) + "d " + std::to_string(e.interval_micros) + "us)";
}

std::string sexpr_case(const ast::Expr& e) {
  std::string text = "(CASE";
  if (e.case_operand) text += " " + sexpr(*e.case_operand);
  for (size_t i = 0; i + 1 < e.children.size(); i += 2) {
    text += " (WHEN " + sexpr(*e.children[i]) + " " + sexpr(*e.children[i + 1]) + ")";
  }
  if (e.else_expr) text += " (ELSE " + sexpr(*e.else_expr) + ")";
  return text + ")";
}

std::string sexpr_function(const ast::Expr& e) {
  if (e.star) return "(" + e.name + " *)";
  if (!e.extract_field.empty())
    return "(" + e.name + " " + e.extract_field + sexpr_children(e) + ")";
  return "(" + e.name + (e.distinct ? " DISTINCT" : "") + sexpr_children(e) + ")";
}

// The expression as an S-expression: operators first, children in order.
std::string sexpr(const ast::Expr& e) {
  std::string not_prefix = e.negated ? "NOT " : "";
  switch (e.kind) {
    case ast::ExprKind::ColumnRef:
      return e.qualifier.empty() ? e.name : e.qualifier + "." + e.name;
    case ast::ExprKind::IntegerLiteral:
    case ast::ExprKind::DecimalLiteral:
    case ast::ExprKind::FloatLiteral:
      return e.text;
    case ast::ExprKind::StringLiteral:
      return "'" + e.text + "'";
    case ast::ExprKind::BooleanLiteral:
      return e.boolean_value ? "TRUE" : "FALSE";
    case ast::ExprKind::NullLiteral:
      return "NULL";
    case ast::ExprKind::DateLiteral:
      return "DATE'" + e.text + "'";
    case ast::ExprKind::TimestampLiteral:
      return "TIMESTAMP'" + e.text + "'";
    case ast::ExprKind::IntervalLiteral:
      return interval_text(e);
    case ast::ExprKind::Parameter:
      return "?" + std::to_string(e.parameter_index);
    case ast::ExprKind::Unary:
    case ast::ExprKind::Binary:
      return "(" + e.op + sexpr_children(e) + ")";
    case ast::ExprKind::Between:
      return "(" + not_prefix + "BETWEEN" + sexpr_children(e) + ")";
    case ast::ExprKind::InList:
      return "(" + not_prefix + "IN" + sexpr_children(e) + ")";
    case ast::ExprKind::Like:
      return "(" + not_prefix + "LIKE" + sexpr_children(e) + ")";
    case ast::ExprKind::IsNull:
      return std::string(e.negated ? "(IS NOT NULL" : "(IS NULL") + sexpr_children(e) + ")";
    case ast::ExprKind::Case:
      return sexpr_case(e);
    case ast::ExprKind::Cast:
      return "(CAST" + sexpr_children(e) + " " + type_text(e.cast_type) + ")";
    case ast::ExprKind::FunctionCall:
      return sexpr_function(e);
    case ast::ExprKind::ScalarSubquery:
    case ast::ExprKind::Exists:
      return "(SUBQUERY)";
    case ast::ExprKind::InSubquery:
      return "(" + not_prefix + "IN" + sexpr_children(e) + " (SUBQUERY))";
  }
  return "?";
}

ast::Statement parse_one(const std::string& sql) {
  std::vector<ast::Statement> statements = parse_script(sql);
  REQUIRE(statements.size() == 1);
  return std::move(statements[0]);
}

ast::SelectStmt parse_select(const std::string& sql) {
  ast::Statement statement = parse_one(sql);
  REQUIRE(std::holds_alternative<ast::SelectStmt>(statement.body));
  return std::move(std::get<ast::SelectStmt>(statement.body));
}

// The first select item's expression, as an S-expression.
std::string expr_of(const std::string& expression) {
  ast::SelectStmt select = parse_select("SELECT " + expression);
  REQUIRE(select.items.size() == 1);
  REQUIRE(select.items[0].expr);
  return sexpr(*select.items[0].expr);
}

std::string where_of(const std::string& condition) {
  ast::SelectStmt select = parse_select("SELECT a FROM t WHERE " + condition);
  REQUIRE(select.where);
  return sexpr(*select.where);
}

struct Failure {
  ErrorKind kind;
  std::string message;
  int line = 0;
  int column = 0;
};

Failure parse_failure(const std::string& sql) {
  try {
    parse_script(sql);
  } catch (const Error& error) {
    Failure failure{error.kind(), error.what()};
    if (error.location()) {
      failure.line = error.location()->line;
      failure.column = error.location()->column;
    }
    return failure;
  }
  FAIL("expected an error for: " << sql);
  return {};
}

Failure syntax_failure(const std::string& sql) {
  Failure failure = parse_failure(sql);
  CHECK(failure.kind == ErrorKind::Syntax);
  return failure;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

template <typename Body>
Body parse_body(const std::string& sql) {
  ast::Statement statement = parse_one(sql);
  REQUIRE(std::holds_alternative<Body>(statement.body));
  return std::move(std::get<Body>(statement.body));
}

}  // namespace

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
