// The binder: SQL text (through parse_script) -> BoundSelect, checked against the typing
// rules, the grouping rewrite and the error messages the SQL reference promises.
#include "compiler/bind/binder.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <variant>

#include "compiler/common/date.h"
#include "compiler/common/suggest.h"
#include "compiler/functions/aggregate_function.h"
#include "compiler/ir/query.h"
#include "compiler/parse/parser.h"

using namespace tally;

namespace {

class TestCatalog : public Catalog {
 public:
  TestCatalog() {
    const Type money = Type::decimal(15, 2);
    tables_.push_back({"lineitem",
                       {{"l_orderkey", Type::bigint()},
                        {"l_partkey", Type::bigint()},
                        {"l_suppkey", Type::bigint()},
                        {"l_linenumber", Type::integer()},
                        {"l_quantity", money},
                        {"l_extendedprice", money},
                        {"l_discount", money},
                        {"l_tax", money},
                        {"l_returnflag", Type::char_(1)},
                        {"l_linestatus", Type::char_(1)},
                        {"l_shipdate", Type::date()},
                        {"l_commitdate", Type::date()},
                        {"l_receiptdate", Type::date()},
                        {"l_shipinstruct", Type::char_(25)},
                        {"l_shipmode", Type::char_(10)},
                        {"l_comment", Type::varchar(44)}}});
    tables_.push_back({"alltypes",
                       {{"b", Type::boolean()},
                        {"s", Type::smallint()},
                        {"i", Type::integer()},
                        {"g", Type::bigint()},
                        {"r", Type::real()},
                        {"d", Type::double_()},
                        {"n", Type::decimal(15, 2)},
                        {"w", Type::decimal(38, 10)},
                        {"t", Type::date()},
                        {"v", Type::varchar()},
                        {"c", Type::char_(3)},
                        {"col1", Type::integer()}}});
  }
  const TableSchema* find_table(std::string_view name) const override {
    for (const auto& t : tables_) {
      if (t.name == name) return &t;
    }
    return nullptr;
  }
  std::vector<std::string> table_names() const override { return {"lineitem", "alltypes"}; }

 private:
  std::vector<TableSchema> tables_;
};

const Catalog& catalog() {
  static const TestCatalog c;
  return c;
}

BoundSelect bind_sql(const std::string& sql) {
  auto statements = parse_script(sql);
  REQUIRE(statements.size() == 1);
  const auto* select = std::get_if<ast::SelectStmt>(&statements[0].body);
  REQUIRE(select != nullptr);
  return bind_select(*select, catalog(), statements[0].parameter_count);
}

struct Failure {
  ErrorKind kind = ErrorKind::Internal;
  std::string message;
  int line = 0;
  int column = 0;
};

Failure bind_failure(const std::string& sql) {
  try {
    bind_sql(sql);
  } catch (const Error& e) {
    Failure f{e.kind(), e.what()};
    if (e.location()) {
      f.line = e.location()->line;
      f.column = e.location()->column;
    }
    return f;
  }
  FAIL("binding succeeded: " << sql);
  return {};
}

void check_failure(const std::string& sql, ErrorKind kind, const std::string& message, int column,
                   int line = 1) {
  INFO(sql);
  Failure f = bind_failure(sql);
  CHECK(f.kind == kind);
  CHECK(f.message == message);
  CHECK(f.line == line);
  CHECK(f.column == column);
}

// The first output of SELECT <expr> FROM alltypes.
ExprPtr bound(const std::string& expr) {
  return bind_sql("SELECT " + expr + " FROM alltypes").outputs.at(0).expr;
}
Type type_of(const std::string& expr) { return bound(expr)->type; }
std::string ir_of(const std::string& expr) { return expr_to_string(*bound(expr)); }
std::vector<Type> parameters_of(const std::string& sql) { return bind_sql(sql).parameter_types; }

ast::ExprPtr parse_value(const std::string& sql_value) {
  auto statements = parse_script("INSERT INTO t VALUES (" + sql_value + ")");
  auto& insert = std::get<ast::InsertStmt>(statements.at(0).body);
  return std::move(insert.rows.at(0).at(0));
}

const Type kMoney = Type::decimal(15, 2);
// TPC-H Q1 as the repository ships it.
std::string trim_semicolon(std::string sql) {
  while (!sql.empty() && (sql.back() == ';' || sql.back() == '\n')) sql.pop_back();
  return sql;
}

std::string tpch_q1() {
  std::ifstream file(std::string(TALLY_SOURCE_DIR) + "/queries/tpch_q1.sql");
  REQUIRE(file.good());
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

// ---------------------------------------------------------------- literals

TEST_CASE("binder: integer literals are INTEGER - BIGINT - then DECIMAL(n-0)") {
  CHECK(type_of("2147483647") == Type::integer());
  CHECK(bound("2147483647")->value.i == 2147483647);
  CHECK(type_of("2147483648") == Type::bigint());
  CHECK(type_of("9223372036854775807") == Type::bigint());
  ExprPtr big = bound("9223372036854775808");
  CHECK(big->type == Type::decimal(19, 0));
  CHECK(big->value.d == static_cast<int128>(INT64_MAX) + 1);
  CHECK(type_of(std::string(38, '9')) == Type::decimal(38, 0));
  Failure f = bind_failure("SELECT " + std::string(39, '9') + " FROM alltypes");
  CHECK(f.kind == ErrorKind::Type);
  CHECK(f.column == 8);
}

TEST_CASE("binder: decimal literals take their digits as precision and scale") {
  ExprPtr e = bound("12.50");
  CHECK(e->kind == ExprKind::Constant);
  CHECK(e->type == Type::decimal(4, 2));
  CHECK(e->value.d == 1250);
  CHECK(type_of("123.4") == Type::decimal(4, 1));
  CHECK(type_of("0.01") == Type::decimal(2, 2));  // leading zeros carry no precision
  CHECK(type_of("1.00") == Type::decimal(3, 2));
}

TEST_CASE("binder: float - string - boolean - date and NULL literals") {
  ExprPtr f = bound("1.5e3");
  CHECK(f->type == Type::double_());
  CHECK(f->value.f == 1500.0);
  ExprPtr s = bound("'abc'");
  CHECK(s->type.is_string());
  CHECK(s->str == "abc");
  CHECK(type_of("TRUE") == Type::boolean());
  ExprPtr d = bound("DATE '1998-12-01'");
  CHECK(d->type == Type::date());
  CHECK(d->value.i == days_from_civil(1998, 12, 1));
  // A NULL with nothing to take a type from is VARCHAR (PostgreSQL's unknown -> text).
  ExprPtr n = bound("NULL");
  CHECK(n->kind == ExprKind::Constant);
  CHECK(n->value.null);
  CHECK(n->type.is_string());
}

TEST_CASE("binder: a bad DATE literal is a type error naming the text") {
  check_failure("SELECT DATE '1998-13-01' FROM alltypes", ErrorKind::Type,
                "invalid input syntax for type DATE: \"1998-13-01\"", 8);
}

TEST_CASE("binder: NULL takes the type of the operand it meets") {
  ExprPtr e = bound("NULL + 1");
  CHECK(e->kind == ExprKind::Constant);
  CHECK(e->value.null);
  CHECK(e->type == Type::integer());
  CHECK(type_of("n + NULL") == Type::decimal(16, 2));
  CHECK(type_of("COALESCE(NULL, t)") == Type::date());
}

// ---------------------------------------------------------------- arithmetic

TEST_CASE("binder: integer arithmetic widens to the wider integer type") {
  CHECK(type_of("s + s") == Type::smallint());
  CHECK(ir_of("s + i") == "(CAST(#0:s AS INTEGER) + #1:i)");
  CHECK(type_of("s + i") == Type::integer());
  CHECK(type_of("i * g") == Type::bigint());
  CHECK(type_of("g / s") == Type::bigint());
  CHECK(type_of("i % i") == Type::integer());
  CHECK(type_of("MOD(col1, s)") == Type::integer());
}

TEST_CASE("binder: integer with DECIMAL casts the integer to DECIMAL(digits-0)") {
  // i -> DECIMAL(10,0); + DECIMAL(15,2): scale 2, max(10, 13) + 2 + 1 = 16 digits.
  CHECK(ir_of("i + n") == "(CAST(#0:i AS DECIMAL(10,0)) + #1:n)");
  CHECK(type_of("i + n") == Type::decimal(16, 2));
  CHECK(type_of("s * n") == Type::decimal(20, 2));  // DECIMAL(5,0) * DECIMAL(15,2)
  CHECK(type_of("g - n") == Type::decimal(22, 2));  // max(19, 13) + 2 + 1
}

TEST_CASE("binder: DECIMAL + and - keep the larger scale - one more integer digit") {
  CHECK(type_of("n + n") == Type::decimal(16, 2));
  CHECK(type_of("n - w") == Type::decimal(38, 10));  // max(13, 28) + 10 + 1 capped at 38
  // DECIMAL operands of different scales are not cast: consumers align them.
  CHECK(ir_of("n + w") == "(#0:n + #1:w)");
}

TEST_CASE("binder: DECIMAL * adds scales and precisions") {
  CHECK(type_of("n * n") == Type::decimal(30, 4));
  CHECK(type_of("n * w") == Type::decimal(38, 12));
  CHECK(type_of("w * w * w") == Type::decimal(38, 30));
  Failure f = bind_failure("SELECT w * w * w * w FROM alltypes");
  CHECK(f.kind == ErrorKind::Type);
  CHECK(f.message.find("scale 40") != std::string::npos);
}

TEST_CASE("binder: DECIMAL / is DECIMAL(38 - max(6 - s1 - s2)) - DECIMAL % keeps the scale") {
  CHECK(type_of("n / n") == Type::decimal(38, 6));
  CHECK(type_of("w / n") == Type::decimal(38, 10));
  CHECK(type_of("i / n") == Type::decimal(38, 6));
  CHECK(type_of("i / i") == Type::integer());
  CHECK(type_of("n % n") == Type::decimal(15, 2));
  CHECK(type_of("n % w") == Type::decimal(38, 10));
  CHECK(type_of("MOD(n, i)") == Type::decimal(15, 2));  // DECIMAL(10,0) % DECIMAL(15,2)
  CHECK(bound("MOD(n, i)")->op == kMod);
}

TEST_CASE("binder: a REAL or DOUBLE operand makes both DOUBLE") {
  CHECK(type_of("i + d") == Type::double_());
  CHECK(ir_of("n * r") == "(CAST(#0:n AS DOUBLE) * CAST(#1:r AS DOUBLE))");
  CHECK(type_of("r + r") == Type::double_());
  CHECK(type_of("n - 1.5e0") == Type::double_());
}

TEST_CASE("binder: unary minus keeps the type and folds constants") {
  ExprPtr neg = bound("-n");
  CHECK(neg->kind == ExprKind::Negate);
  CHECK(neg->type == kMoney);
  ExprPtr five = bound("-5");
  CHECK(five->kind == ExprKind::Constant);
  CHECK(five->value.i == -5);
  CHECK(five->type == Type::integer());
  check_failure("SELECT -t FROM alltypes", ErrorKind::Type,
                "cannot apply operator '-' to DATE in \"-t\"", 8);
}

TEST_CASE("binder: DATE arithmetic with integers puts the DATE first") {
  CHECK(type_of("t + 5") == Type::date());
  CHECK(ir_of("t + 5") == "(#0:t + 5)");
  CHECK(ir_of("5 + t") == "(#0:t + 5)");
  CHECK(type_of("t - 5") == Type::date());
  CHECK(type_of("t - t") == Type::integer());
  CHECK(ir_of("t + s") == "(#0:t + CAST(#1:s AS INTEGER))");
}

TEST_CASE("binder: DATE +/- INTERVAL is DateAdd - folded on constants") {
  ExprPtr months = bound("t + INTERVAL '3' MONTH");
  CHECK(months->kind == ExprKind::DateAdd);
  CHECK(months->months == 3);
  CHECK(months->days == 0);
  ExprPtr years = bound("t - INTERVAL '1' YEAR");
  CHECK(years->months == -12);
  ExprPtr days = bound("INTERVAL '10' DAY + t");
  CHECK(days->kind == ExprKind::DateAdd);
  CHECK(days->days == 10);
  ExprPtr folded = bound("DATE '1998-12-01' - INTERVAL '90' DAY");
  CHECK(folded->kind == ExprKind::Constant);
  CHECK(folded->value.i == days_from_civil(1998, 9, 2));  // 90 days before December 1st
  check_failure("SELECT INTERVAL '1' DAY - t FROM alltypes", ErrorKind::Type,
                "cannot apply operator '-' to INTERVAL and DATE in \"INTERVAL '1' DAY - t\"", 8);
  check_failure("SELECT i + INTERVAL '1' DAY FROM alltypes", ErrorKind::Type,
                "cannot apply operator '+' to INTEGER and INTERVAL in \"i + INTERVAL '1' DAY\"", 8);
}

TEST_CASE("binder: arithmetic on types without the operator is a type error") {
  check_failure("SELECT t + v FROM alltypes", ErrorKind::Type,
                "cannot apply operator '+' to DATE and VARCHAR in \"t + v\"", 8);
  check_failure("SELECT i, t * 2 FROM alltypes", ErrorKind::Type,
                "cannot apply operator '*' to DATE and INTEGER in \"t * 2\"", 11);
  check_failure("SELECT b + 1 FROM alltypes", ErrorKind::Type,
                "cannot apply operator '+' to BOOLEAN and INTEGER in \"b + 1\"", 8);
  check_failure("SELECT 2 - t FROM alltypes", ErrorKind::Type,
                "cannot apply operator '-' to INTEGER and DATE in \"2 - t\"", 8);
}

TEST_CASE("binder: string concatenation needs a string operand") {
  CHECK(ir_of("v || 'x'") == "||(#0:v, 'x')");
  Failure f = bind_failure("SELECT i || i FROM alltypes");
  CHECK(f.kind == ErrorKind::Type);
  CHECK(f.message == "cannot apply operator '||' to INTEGER and INTEGER in \"i || i\"");
}

// ---------------------------------------------------------------- comparisons

TEST_CASE("binder: comparisons coerce to a common numeric class") {
  CHECK(ir_of("i = n") == "(CAST(#0:i AS DECIMAL(10,0)) = #1:n)");
  CHECK(ir_of("n < w") == "(#0:n < #1:w)");  // each DECIMAL keeps its scale
  CHECK(ir_of("s < g") == "(CAST(#0:s AS BIGINT) < #1:g)");
  CHECK(ir_of("i = d") == "(CAST(#0:i AS DOUBLE) = #1:d)");
  CHECK(type_of("i = d") == Type::boolean());
  CHECK(ir_of("t >= t") == "(#0:t >= #0:t)");
  CHECK(ir_of("v <> c") == "(#0:v <> #1:c)");
  CHECK(ir_of("b = TRUE") == "(#0:b = TRUE)");
}

TEST_CASE("binder: a string literal next to a DATE or a number takes that type") {
  CHECK(ir_of("t = '1998-12-01'") == "(#0:t = DATE '1998-12-01')");
  CHECK(ir_of("'1998-12-01' > t") == "(DATE '1998-12-01' > #0:t)");
  // The literal stays exact: it is read as the number it spells.
  CHECK(ir_of("n > '12.555'") == "(#0:n > 12.555)");
  CHECK(ir_of("i = '7'") == "(#0:i = 7)");
  CHECK(ir_of("v = 'x'") == "(#0:v = 'x')");
  check_failure("SELECT t < 'junk' FROM alltypes", ErrorKind::Type,
                "invalid input syntax for type DATE: \"junk\"", 12);
  check_failure("SELECT i = 'x' FROM alltypes", ErrorKind::Type,
                "invalid input syntax for type INTEGER: \"x\"", 12);
}

TEST_CASE("binder: comparing different kinds is a type error") {
  check_failure("SELECT t = 5 FROM alltypes", ErrorKind::Type,
                "cannot apply operator '=' to DATE and INTEGER in \"t = 5\"", 8);
  check_failure("SELECT v < 1 FROM alltypes", ErrorKind::Type,
                "cannot apply operator '<' to VARCHAR and INTEGER in \"v < 1\"", 8);
  check_failure("SELECT b = 1 FROM alltypes", ErrorKind::Type,
                "cannot apply operator '=' to BOOLEAN and INTEGER in \"b = 1\"", 8);
}

TEST_CASE("binder: BETWEEN becomes AND of >= and <= - NOT BETWEEN OR of < and >") {
  CHECK(ir_of("i BETWEEN 1 AND 10") == "((#0:i >= 1) AND (#0:i <= 10))");
  CHECK(ir_of("i NOT BETWEEN 1 AND 10") == "((#0:i < 1) OR (#0:i > 10))");
  CHECK(ir_of("t BETWEEN '1998-01-01' AND DATE '1998-12-31'") ==
        "((#0:t >= DATE '1998-01-01') AND (#0:t <= DATE '1998-12-31'))");
  CHECK(ir_of("n BETWEEN 1 AND 2.5") ==
        "((#0:n >= 1) AND (#0:n <= 2.5))");  // 1 folded as DECIMAL(10,0)
  CHECK(bound("n BETWEEN 1 AND 2.5")->children[0]->children[1]->type == Type::decimal(10, 0));
}

TEST_CASE("binder: IN casts the value and the items to one common type") {
  // INTEGER and DECIMAL(2,1): scale 1, 10 integer digits -> DECIMAL(11,1).
  ExprPtr in = bound("i IN (1, 2.5)");
  CHECK(in->kind == ExprKind::InList);
  CHECK_FALSE(in->negated);
  CHECK(expr_to_string(*in) == "(CAST(#0:i AS DECIMAL(11,1)) IN (1.0, 2.5))");
  for (const auto& c : in->children) CHECK(c->type == Type::decimal(11, 1));
  CHECK(bound("i NOT IN (1, 2)")->negated);
  CHECK(ir_of("t IN ('1998-01-01', DATE '1998-02-01')") ==
        "(#0:t IN (DATE '1998-01-01', DATE '1998-02-01'))");
  check_failure("SELECT v IN ('a', 1) FROM alltypes", ErrorKind::Type,
                "IN types VARCHAR and INTEGER cannot be matched", 19);
}

TEST_CASE("binder: LIKE needs a VARCHAR value and a constant pattern") {
  ExprPtr like = bound("v LIKE 'a%'");
  CHECK(like->kind == ExprKind::Like);
  CHECK(like->str == "a%");
  CHECK_FALSE(like->negated);
  CHECK(bound("c NOT LIKE '_b%'")->negated);
  check_failure("SELECT v LIKE v FROM alltypes", ErrorKind::Unsupported,
                "LIKE with a non-constant pattern is not supported", 15);
  check_failure("SELECT i LIKE 'a' FROM alltypes", ErrorKind::Type,
                "cannot apply operator 'LIKE' to INTEGER and VARCHAR in \"i LIKE 'a'\"", 8);
}

TEST_CASE("binder: IS NULL and IS NOT NULL") {
  ExprPtr e = bound("n IS NOT NULL");
  CHECK(e->kind == ExprKind::IsNull);
  CHECK(e->negated);
  CHECK(e->type == Type::boolean());
  ExprPtr folded = bound("NULL IS NULL");
  CHECK(folded->kind == ExprKind::Constant);
  CHECK(folded->value.i == 1);
}

// ---------------------------------------------------------------- logic

TEST_CASE("binder: AND/OR chains flatten into one node") {
  ExprPtr e = bound("b AND i > 1 AND (s < 2 AND g = 3)");
  CHECK(e->kind == ExprKind::And);
  CHECK(e->children.size() == 4);
  ExprPtr o = bound("b OR i > 1 OR s < 2");
  CHECK(o->kind == ExprKind::Or);
  CHECK(o->children.size() == 3);
  ExprPtr mixed = bound("b OR i > 1 AND s < 2");
  CHECK(mixed->kind == ExprKind::Or);
  CHECK(mixed->children.size() == 2);
  CHECK(mixed->children[1]->kind == ExprKind::And);
  ExprPtr between = bound("b AND i BETWEEN 1 AND 2");
  CHECK(between->children.size() == 3);  // the BETWEEN's AND joins the chain
}

TEST_CASE("binder: logical operands must be BOOLEAN") {
  check_failure("SELECT b AND 1 FROM alltypes", ErrorKind::Type,
                "argument of AND must be type BOOLEAN, not INTEGER", 14);
  check_failure("SELECT NOT i FROM alltypes", ErrorKind::Type,
                "argument of NOT must be type BOOLEAN, not INTEGER", 12);
  CHECK(ir_of("b OR NULL") == "(#0:b OR NULL)");
  CHECK(bound("b OR NULL")->children[1]->type == Type::boolean());
}

TEST_CASE("binder: WHERE and HAVING must be BOOLEAN") {
  check_failure("SELECT i FROM alltypes WHERE i + 1", ErrorKind::Type,
                "argument of WHERE must be type BOOLEAN, not INTEGER", 30);
  check_failure("SELECT COUNT(*) FROM alltypes HAVING COUNT(*)", ErrorKind::Type,
                "argument of HAVING must be type BOOLEAN, not BIGINT", 38);
  BoundSelect q = bind_sql("SELECT i FROM alltypes WHERE NULL");
  REQUIRE(q.filter);
  CHECK(q.filter->type == Type::boolean());
  CHECK(q.filter->value.null);
  CHECK(bind_sql("SELECT i FROM alltypes WHERE 1 = 1").filter == nullptr);
}

// ---------------------------------------------------------------- CASE, COALESCE

TEST_CASE("binder: CASE result type is the common type of its results") {
  CHECK(type_of("CASE WHEN b THEN 1 ELSE 2.5 END") == Type::decimal(11, 1));
  CHECK(type_of("CASE WHEN b THEN s ELSE g END") == Type::bigint());
  CHECK(type_of("CASE WHEN b THEN n ELSE w END") == Type::decimal(38, 10));
  CHECK(type_of("CASE WHEN b THEN n WHEN i > 0 THEN i ELSE 0.125 END") ==
        Type::decimal(16, 3));  // 13 integer digits from n, scale 3 from 0.125
  CHECK(type_of("CASE WHEN b THEN i ELSE d END") == Type::double_());
  CHECK(type_of("CASE WHEN b THEN t ELSE '1998-01-01' END") == Type::date());
  ExprPtr e = bound("CASE WHEN b THEN s ELSE g END");
  CHECK(e->children[1]->kind == ExprKind::Cast);  // s -> BIGINT
  check_failure("SELECT CASE WHEN b THEN t ELSE 1 END FROM alltypes", ErrorKind::Type,
                "CASE types DATE and INTEGER cannot be matched", 32);
}

TEST_CASE("binder: CASE without ELSE ends with a typed NULL") {
  ExprPtr e = bound("CASE WHEN b THEN 'x' WHEN i > 1 THEN 'y' END");
  CHECK(e->kind == ExprKind::Case);
  REQUIRE(e->children.size() == 5);
  CHECK(e->children[4]->kind == ExprKind::Constant);
  CHECK(e->children[4]->value.null);
  CHECK(e->children[4]->type.is_string());
  CHECK(e->type.is_string());
}

TEST_CASE("binder: simple CASE compares the operand with each WHEN value") {
  ExprPtr e = bound("CASE i WHEN 1 THEN 'a' WHEN 2 THEN 'b' ELSE 'c' END");
  REQUIRE(e->children.size() == 5);
  CHECK(expr_to_string(*e->children[0]) == "(#0:i = 1)");
  CHECK(expr_to_string(*e->children[2]) == "(#0:i = 2)");
  CHECK(e->children[4]->str == "c");
  CHECK(ir_of("CASE t WHEN '1998-01-01' THEN 1 END") ==
        "CASE WHEN (#0:t = DATE '1998-01-01') THEN 1 ELSE NULL END");
}

TEST_CASE("binder: CASE WHEN conditions must be BOOLEAN") {
  check_failure("SELECT CASE WHEN i THEN 1 END FROM alltypes", ErrorKind::Type,
                "argument of CASE/WHEN must be type BOOLEAN, not INTEGER", 18);
}

TEST_CASE("binder: COALESCE takes the common type of its arguments") {
  CHECK(type_of("COALESCE(i, n)") == Type::decimal(15, 2));
  CHECK(type_of("COALESCE(s, i, s)") == Type::integer());
  ExprPtr e = bound("COALESCE(v, NULL)");
  CHECK(e->kind == ExprKind::Coalesce);
  CHECK(e->children[1]->type.is_string());
  check_failure("SELECT COALESCE(t, 5) FROM alltypes", ErrorKind::Type,
                "COALESCE types DATE and INTEGER cannot be matched", 20);
}

// ---------------------------------------------------------------- CAST

TEST_CASE("binder: CAST and :: build Cast nodes - dropped when the type is the same") {
  ExprPtr e = bound("CAST(i AS DECIMAL(10,2))");
  CHECK(e->kind == ExprKind::Cast);
  CHECK(e->type == Type::decimal(10, 2));
  CHECK(ir_of("i::BIGINT") == "CAST(#0:i AS BIGINT)");
  CHECK(ir_of("CAST(i AS INTEGER)") == "#0:i");
  CHECK(ir_of("CAST(i AS INT)") == "#0:i");
  CHECK(type_of("CAST(t AS VARCHAR)").is_string());
  CHECK(type_of("CAST(b AS INTEGER)") == Type::integer());
  CHECK(type_of("CAST(i AS BOOLEAN)") == Type::boolean());
  CHECK(type_of("CAST(v AS DATE)") == Type::date());
}

TEST_CASE("binder: CAST of a string literal happens at bind time") {
  ExprPtr d = bound("CAST('12.345' AS DECIMAL(10,2))");
  CHECK(d->kind == ExprKind::Constant);
  CHECK(d->value.d == 1235);  // rounded half away from zero
  ExprPtr date = bound("'1998-12-01'::DATE");
  CHECK(date->kind == ExprKind::Constant);
  CHECK(date->value.i == days_from_civil(1998, 12, 1));
  Failure f = bind_failure("SELECT CAST('abc' AS INTEGER) FROM alltypes");
  CHECK(f.kind == ErrorKind::Type);
  CHECK(f.message.find("\"abc\"") != std::string::npos);
}

TEST_CASE("binder: casts between unrelated types are type errors") {
  check_failure("SELECT CAST(t AS INTEGER) FROM alltypes", ErrorKind::Type,
                "cannot cast DATE to INTEGER", 8);
  check_failure("SELECT CAST(b AS DECIMAL(5,2)) FROM alltypes", ErrorKind::Type,
                "cannot cast BOOLEAN to DECIMAL(5,2)", 8);
  check_failure("SELECT CAST(t AS DOUBLE) FROM alltypes", ErrorKind::Type,
                "cannot cast DATE to DOUBLE", 8);
}

TEST_CASE("binder: type names resolve with their parameters checked") {
  CHECK(type_of("CAST(i AS DECIMAL)") == Type::decimal(18, 3));
  CHECK(type_of("CAST(i AS DECIMAL(7))") == Type::decimal(7, 0));
  CHECK(ir_of("CAST(v AS CHAR)") == "#0:v");  // same SQL type: no Cast
  CHECK(resolve_type_name({"CHAR", {}, {}}) == Type::char_(1));
  CHECK(type_of("CAST(v AS VARCHAR(10))").is_string());
  check_failure("SELECT CAST(i AS DECIMAL(40,2)) FROM alltypes", ErrorKind::Type,
                "DECIMAL precision 40 must be between 1 and 38", 18);
  check_failure("SELECT CAST(i AS DECIMAL(5,6)) FROM alltypes", ErrorKind::Type,
                "DECIMAL scale 6 must be between 0 and the precision 5", 18);
  ast::TypeName unknown{"GEOMETRY", {}, {3, 4}};
  try {
    resolve_type_name(unknown);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Type);
    CHECK(std::string(e.what()) == "type \"geometry\" does not exist");
    CHECK(e.location()->line == 3);
  }
  CHECK(resolve_type_name({"VARCHAR", {25}, {}}) == Type::varchar(25));
  CHECK(resolve_type_name({"CHAR", {10}, {}}) == Type::char_(10));
}

// ---------------------------------------------------------------- scalar functions

TEST_CASE("binder: ABS keeps the numeric type") {
  ExprPtr e = bound("ABS(n)");
  CHECK(e->kind == ExprKind::Abs);
  CHECK(e->type == kMoney);
  CHECK(type_of("ABS(s)") == Type::smallint());
  check_failure("SELECT ABS(v) FROM alltypes", ErrorKind::Type,
                "function \"abs\" requires a numeric argument, not VARCHAR", 12);
}

TEST_CASE("binder: ROUND result types and digits") {
  ExprPtr one = bound("ROUND(n, 1)");
  CHECK(one->kind == ExprKind::Round);
  CHECK(one->digits == 1);
  CHECK(one->type == Type::decimal(15, 1));  // 13 integer digits + 1 + carry
  CHECK(type_of("ROUND(n)") == Type::decimal(14, 0));
  ExprPtr tens = bound("ROUND(n, -1)");
  CHECK(tens->digits == -1);
  CHECK(tens->type == Type::decimal(14, 0));
  CHECK(type_of("ROUND(w, 5)") == Type::decimal(34, 5));
  CHECK(type_of("ROUND(i, 2)") == Type::integer());
  CHECK(bound("ROUND(i, 2)")->digits == 2);
  CHECK(type_of("ROUND(d, 2)") == Type::double_());
  CHECK(ir_of("ROUND(r)") == "ROUND(CAST(#0:r AS DOUBLE), 0)");
  Failure f = bind_failure("SELECT ROUND(n, i) FROM alltypes");
  CHECK(f.kind == ErrorKind::Unsupported);
  CHECK(bind_failure("SELECT ROUND(n, 1.5) FROM alltypes").kind == ErrorKind::Type);
}

TEST_CASE("binder: EXTRACT takes a DATE and gives BIGINT") {
  ExprPtr e = bound("EXTRACT(YEAR FROM t)");
  CHECK(e->kind == ExprKind::Extract);
  CHECK(e->op == kYear);
  CHECK(e->type == Type::bigint());
  ExprPtr folded = bound("EXTRACT(MONTH FROM DATE '1998-12-01')");
  CHECK(folded->kind == ExprKind::Constant);
  CHECK(folded->value.i == 12);
  CHECK(folded->type == Type::bigint());
  check_failure("SELECT EXTRACT(DAY FROM i) FROM alltypes", ErrorKind::Type,
                "EXTRACT needs a DATE, TIMESTAMP or TIME, not INTEGER", 25);
}

TEST_CASE("binder: unknown functions suggest a near name") {
  check_failure("SELECT frobnicate(i) FROM alltypes", ErrorKind::Binder,
                "function \"frobnicate\" does not exist", 8);
  check_failure("SELECT sume(i) FROM alltypes", ErrorKind::Binder,
                "function \"sume\" does not exist (did you mean \"sum\"?)", 8);
  check_failure("SELECT uppr(v) FROM alltypes", ErrorKind::Binder,
                "function \"uppr\" does not exist (did you mean \"upper\"?)", 8);
  check_failure("SELECT abs(i, 2) FROM alltypes", ErrorKind::Binder,
                "function \"abs\" expects 1 argument, got 2", 8);
}

// ---------------------------------------------------------------- names

TEST_CASE("binder: unknown columns and tables suggest a near name") {
  check_failure("SELECT l_quantiy FROM lineitem", ErrorKind::Binder,
                "column \"l_quantiy\" does not exist (did you mean \"l_quantity\"?)", 8);
  check_failure("SELECT zzz FROM lineitem", ErrorKind::Binder, "column \"zzz\" does not exist", 8);
  check_failure("SELECT 1 FROM lineitm", ErrorKind::Binder,
                "table \"lineitm\" does not exist (did you mean \"lineitem\"?)", 15);
  check_failure("SELECT l_tax\nFROM lineitem\nWHERE l_shipdat > DATE '1998-01-01'",
                ErrorKind::Binder,
                "column \"l_shipdat\" does not exist (did you mean \"l_shipdate\"?)", 7, 3);
}

TEST_CASE("binder: qualifiers must name the FROM table or its alias") {
  CHECK(bind_sql("SELECT l.l_tax FROM lineitem l").scan.size() == 1);
  CHECK(bind_sql("SELECT lineitem.l_tax FROM lineitem").scan.size() == 1);
  CHECK(bind_sql("SELECT li.l_tax FROM lineitem AS li").scan[0].name == "l_tax");
  check_failure("SELECT x.l_tax FROM lineitem", ErrorKind::Binder,
                "missing FROM-clause entry for table \"x\"", 8);
  check_failure("SELECT lineitem.l_tax FROM lineitem l", ErrorKind::Binder,
                "missing FROM-clause entry for table \"lineitem\"", 8);
}

TEST_CASE("binder: a query without FROM has no table and no columns") {
  BoundSelect q = bind_sql("SELECT 1 + 2 AS three");
  CHECK(q.table.empty());
  CHECK(q.scan.empty());
  CHECK(q.outputs[0].name == "three");
  CHECK(q.outputs[0].expr->kind == ExprKind::Constant);
  CHECK(q.outputs[0].expr->value.i == 3);
  check_failure("SELECT a", ErrorKind::Binder, "column \"a\" does not exist", 8);
  check_failure("SELECT *", ErrorKind::Binder, "SELECT * with no tables specified is not valid", 8);
}

TEST_CASE("binder: the scan holds referenced columns in order of first reference") {
  BoundSelect q = bind_sql(
      "SELECT l_tax, l_quantity FROM lineitem WHERE l_shipdate > DATE '1998-01-01' AND "
      "l_quantity > 1 AND l_tax < 0.5");
  REQUIRE(q.scan.size() == 3);
  CHECK(q.table == "lineitem");
  CHECK(q.scan[0].name == "l_tax");
  CHECK(q.scan[0].table_column == 7);
  CHECK(q.scan[1].table_column == 4);
  CHECK(q.scan[2].name == "l_shipdate");
  CHECK(q.scan[2].table_column == 10);
  CHECK(q.scan[2].type == Type::date());
  CHECK(q.filter->kind == ExprKind::And);
  CHECK(q.filter->children.size() == 3);
  CHECK_FALSE(q.aggregated);
}

TEST_CASE("binder: * expands to every column - named after them") {
  BoundSelect q = bind_sql("SELECT * FROM alltypes");
  REQUIRE(q.outputs.size() == 12);
  CHECK(q.visible_outputs == 12);
  CHECK(q.outputs[0].name == "b");
  CHECK(q.outputs[11].name == "col1");
  CHECK(q.outputs[8].expr->type == Type::date());
  CHECK(q.scan.size() == 12);
}

TEST_CASE("binder: output names are the alias - the column - or the source text") {
  BoundSelect q = bind_sql(
      "SELECT l_tax, l_tax AS tax, l_tax * 2, SUM(l_quantity) FROM lineitem "
      "GROUP BY l_tax");
  CHECK(q.outputs[0].name == "l_tax");
  CHECK(q.outputs[1].name == "tax");
  CHECK(q.outputs[2].name == "l_tax * 2");
  CHECK(q.outputs[3].name == "SUM(l_quantity)");
}

// ---------------------------------------------------------------- parameters

TEST_CASE("binder: parameter types come from the other operand") {
  CHECK(parameters_of("SELECT COUNT(*) FROM lineitem WHERE l_shipdate <= ?") ==
        std::vector<Type>{Type::date()});
  CHECK(parameters_of("SELECT MOD(col1, ?) FROM alltypes") == std::vector<Type>{Type::integer()});
  CHECK(parameters_of("SELECT l_tax FROM lineitem WHERE l_quantity < ?") ==
        std::vector<Type>{kMoney});
  // TPC-H Q6 style: each parameter takes the type of the literal next to it.
  CHECK(parameters_of("SELECT SUM(l_tax) FROM lineitem WHERE l_discount BETWEEN ? - 0.01 AND "
                      "? + 0.01") == std::vector<Type>{Type::decimal(2, 2), Type::decimal(2, 2)});
  CHECK(parameters_of("SELECT i FROM alltypes WHERE i IN (?, ?)") ==
        std::vector<Type>{Type::integer(), Type::integer()});
  CHECK(parameters_of("SELECT i FROM alltypes WHERE ? IN (1, 2.5)") ==
        std::vector<Type>{Type::decimal(11, 1)});
  CHECK(parameters_of("SELECT i FROM alltypes WHERE ? BETWEEN i AND g") ==
        std::vector<Type>{Type::bigint()});
  CHECK(parameters_of("SELECT i FROM alltypes WHERE v LIKE 'a%' AND ? = v") ==
        std::vector<Type>{Type::varchar()});
}

TEST_CASE("binder: parameters next to a DATE in arithmetic count days") {
  CHECK(parameters_of("SELECT l_tax FROM lineitem WHERE l_shipdate <= DATE '1998-12-01' - ?") ==
        std::vector<Type>{Type::integer()});
  CHECK(parameters_of("SELECT t + ? FROM alltypes") == std::vector<Type>{Type::integer()});
  CHECK(parameters_of("SELECT ? - t FROM alltypes") == std::vector<Type>{Type::date()});
  CHECK(parameters_of("SELECT ? + INTERVAL '1' DAY FROM alltypes") ==
        std::vector<Type>{Type::date()});
}

TEST_CASE("binder: CAST - LIMIT - WHERE and CASE give parameters a type") {
  BoundSelect cast = bind_sql("SELECT CAST(? AS DATE) FROM alltypes");
  CHECK(cast.parameter_types == std::vector<Type>{Type::date()});
  CHECK(expr_to_string(*cast.outputs[0].expr) == "$1");
  BoundSelect limit = bind_sql("SELECT i FROM alltypes WHERE ? LIMIT ? OFFSET ?");
  CHECK(limit.parameter_types ==
        std::vector<Type>{Type::boolean(), Type::bigint(), Type::bigint()});
  CHECK(limit.limit_parameter == 1);
  CHECK(limit.offset_parameter == 2);
  CHECK_FALSE(limit.limit.has_value());
  // Both branches are typed from the + that uses the CASE.
  CHECK(parameters_of("SELECT CASE WHEN b THEN ? ELSE ? END + 1 FROM alltypes") ==
        std::vector<Type>{Type::integer(), Type::integer()});
}

TEST_CASE("binder: a parameter whose type cannot be inferred is an error") {
  const std::string message = "could not determine the type of parameter $1; write CAST(? AS type)";
  check_failure("SELECT ? FROM alltypes", ErrorKind::Type, message, 8);
  check_failure("SELECT ? + ? FROM alltypes", ErrorKind::Type, message, 8);
  check_failure("SELECT -? FROM alltypes", ErrorKind::Type, message, 9);
  check_failure("SELECT SUM(?) FROM alltypes", ErrorKind::Type, message, 12);
  check_failure("SELECT i FROM alltypes WHERE i = ? AND ? IS NULL", ErrorKind::Type,
                "could not determine the type of parameter $2; write CAST(? AS type)", 40);
}

// ---------------------------------------------------------------- aggregates

TEST_CASE("binder: aggregate result types") {
  auto agg_type = [](const std::string& call) {
    BoundSelect q = bind_sql("SELECT " + call + " FROM alltypes");
    REQUIRE(q.aggregates.size() == 1);
    CHECK(q.outputs[0].expr->type == q.aggregates[0].type);
    return q.aggregates[0].type;
  };
  CHECK(agg_type("SUM(i)") == Type::bigint());
  CHECK(agg_type("SUM(s)") == Type::bigint());
  CHECK(agg_type("SUM(n)") == Type::decimal(38, 2));
  CHECK(agg_type("SUM(d)") == Type::double_());
  CHECK(agg_type("SUM(r)") == Type::double_());
  CHECK(agg_type("AVG(i)") == Type::decimal(38, 6));
  CHECK(agg_type("AVG(n)") == Type::decimal(38, 6));
  CHECK(agg_type("AVG(w)") == Type::decimal(38, 10));
  CHECK(agg_type("AVG(d)") == Type::double_());
  CHECK(agg_type("MIN(t)") == Type::date());
  CHECK(agg_type("MAX(v)").is_string());
  CHECK(agg_type("MAX(n)") == kMoney);
  CHECK(agg_type("COUNT(v)") == Type::bigint());
  CHECK(agg_type("COUNT(*)") == Type::bigint());
  CHECK(agg_type("STDDEV(i)") == Type::double_());
  CHECK(agg_type("STDDEV_SAMP(n)") == Type::double_());
  CHECK(agg_type("VARIANCE(n)") == Type::double_());
  CHECK(agg_type("VAR_SAMP(d)") == Type::double_());
  CHECK(bind_sql("SELECT VARIANCE(i) FROM alltypes").aggregates[0].kind == AggKind::VarSamp);
  CHECK(bind_sql("SELECT COUNT(*) FROM alltypes").aggregates[0].kind == AggKind::CountStar);
  CHECK(bind_sql("SELECT COUNT(*) FROM alltypes").aggregates[0].arg == nullptr);
}

TEST_CASE("binder: aggregates reject argument types they cannot sum") {
  Failure f = bind_failure("SELECT SUM(v) FROM alltypes");
  CHECK(f.kind == ErrorKind::Type);
  CHECK(f.message == "cannot apply SUM to VARCHAR in \"SUM(v)\": the argument must be numeric");
  CHECK(bind_failure("SELECT AVG(t) FROM alltypes").kind == ErrorKind::Type);
  CHECK(bind_failure("SELECT STDDEV(b) FROM alltypes").kind == ErrorKind::Type);
}

TEST_CASE("binder: DISTINCT aggregates") {
  BoundSelect q = bind_sql(
      "SELECT COUNT(DISTINCT i), SUM(DISTINCT n), MIN(DISTINCT t) FROM "
      "alltypes");
  REQUIRE(q.aggregates.size() == 3);
  CHECK(q.aggregates[0].kind == AggKind::Count);
  CHECK(q.aggregates[0].distinct);
  CHECK(q.aggregates[1].distinct);
  CHECK_FALSE(q.aggregates[2].distinct);  // MIN is the same with or without DISTINCT
  check_failure("SELECT STDDEV(DISTINCT i) FROM alltypes", ErrorKind::Unsupported,
                "STDDEV_SAMP(DISTINCT ...) is not supported", 8);
}

TEST_CASE("binder: aggregates are not allowed in WHERE or GROUP BY - nor nested") {
  check_failure("SELECT i FROM alltypes WHERE SUM(i) > 1", ErrorKind::Binder,
                "aggregate functions are not allowed in WHERE", 30);
  check_failure("SELECT COUNT(*) FROM alltypes GROUP BY SUM(i)", ErrorKind::Binder,
                "aggregate functions are not allowed in GROUP BY", 40);
  check_failure("SELECT SUM(SUM(i)) FROM alltypes", ErrorKind::Binder,
                "aggregate function calls cannot be nested", 12);
}

TEST_CASE("binder: identical aggregate calls are computed once") {
  BoundSelect q = bind_sql(
      "SELECT SUM(i), SUM(i) + 1, SUM(DISTINCT i), COUNT(*), count(*), SUM(g) FROM alltypes");
  REQUIRE(q.aggregates.size() == 4);
  CHECK(q.outputs[0].expr->kind == ExprKind::AggregateRef);
  CHECK(q.outputs[0].expr->index == 0);
  CHECK(expr_to_string(*q.outputs[1].expr) == "(agg0 + 1)");
  CHECK(q.outputs[2].expr->index == 1);
  CHECK(q.outputs[3].expr->index == 2);
  CHECK(q.outputs[4].expr->index == 2);
  CHECK(q.outputs[5].expr->index == 3);
  CHECK(q.aggregated);
  CHECK(q.group_keys.empty());
}

// ---------------------------------------------------------------- grouping

TEST_CASE("binder: TPC-H Q1 binds with 2 keys and 8 aggregates") {
  BoundSelect q = bind_sql(tpch_q1());
  CHECK(q.aggregated);
  REQUIRE(q.group_keys.size() == 2);
  CHECK(expr_to_string(*q.group_keys[0]) == "#0:l_returnflag");
  CHECK(expr_to_string(*q.group_keys[1]) == "#1:l_linestatus");
  REQUIRE(q.aggregates.size() == 8);
  CHECK(q.aggregates[0].type == Type::decimal(38, 2));  // sum(l_quantity)
  // (1 - l_discount) is DECIMAL(16,2); times DECIMAL(15,2) is DECIMAL(31,4).
  CHECK(q.aggregates[2].arg->type == Type::decimal(31, 4));
  CHECK(q.aggregates[2].type == Type::decimal(38, 4));
  CHECK(q.aggregates[3].type == Type::decimal(38, 6));  // DECIMAL(31,4) * DECIMAL(16,2)
  CHECK(q.aggregates[4].type == Type::decimal(38, 6));  // avg
  CHECK(q.aggregates[7].kind == AggKind::CountStar);
  CHECK(expr_to_string(*q.filter) == "(#6:l_shipdate <= DATE '1998-09-02')");
  REQUIRE(q.outputs.size() == 10);
  CHECK(q.visible_outputs == 10);
  CHECK(q.outputs[0].expr->kind == ExprKind::GroupKeyRef);
  CHECK(q.outputs[1].expr->index == 1);
  for (size_t i = 2; i < 10; ++i) {
    CHECK(q.outputs[i].expr->kind == ExprKind::AggregateRef);
    CHECK(q.outputs[i].expr->index == static_cast<int>(i - 2));
  }
  CHECK(q.outputs[9].name == "count_order");
  REQUIRE(q.order_by.size() == 2);
  CHECK(q.order_by[0].output == 0);
  CHECK(q.order_by[1].output == 1);
  CHECK_FALSE(q.order_by[0].descending);
  CHECK_FALSE(q.order_by[0].nulls_first);
  CHECK(q.scan.size() == 7);
}

TEST_CASE("binder: outputs are rewritten over group keys - largest match first") {
  BoundSelect whole = bind_sql("SELECT i + 1, COUNT(*) FROM alltypes GROUP BY i + 1");
  CHECK(expr_to_string(*whole.outputs[0].expr) == "key0");
  BoundSelect part = bind_sql("SELECT i + 1, SUM(n) * 2 FROM alltypes GROUP BY i");
  CHECK(expr_to_string(*part.outputs[0].expr) == "(key0 + 1)");
  CHECK(part.outputs[1].expr->type == Type::decimal(38, 2));  // DECIMAL(38,2) * DECIMAL(10,0)
  BoundSelect having = bind_sql("SELECT i FROM alltypes GROUP BY i HAVING SUM(n) > 10 AND i < 5");
  CHECK(expr_to_string(*having.having) == "((agg0 > 10) AND (key0 < 5))");
}

TEST_CASE("binder: a column neither grouped nor aggregated is an error") {
  const std::string message =
      "column \"l_tax\" must appear in the GROUP BY clause or be used in an aggregate function";
  check_failure("SELECT l_returnflag, l_tax FROM lineitem GROUP BY l_returnflag", ErrorKind::Binder,
                message, 22);
  check_failure("SELECT l_returnflag, 1 + l_tax FROM lineitem GROUP BY l_returnflag",
                ErrorKind::Binder, message, 26);
  check_failure("SELECT COUNT(*) FROM lineitem GROUP BY l_returnflag HAVING l_tax > 1",
                ErrorKind::Binder, message, 60);
  check_failure("SELECT l_returnflag FROM lineitem GROUP BY l_returnflag ORDER BY l_tax",
                ErrorKind::Binder, message, 66);
  check_failure("SELECT l_tax, COUNT(*) FROM lineitem", ErrorKind::Binder, message, 8);
}

TEST_CASE("binder: aggregates or HAVING alone make the query aggregated") {
  BoundSelect count = bind_sql("SELECT COUNT(*) FROM lineitem");
  CHECK(count.aggregated);
  CHECK(count.group_keys.empty());
  BoundSelect having = bind_sql("SELECT 1 FROM lineitem HAVING COUNT(*) > 1");
  CHECK(having.aggregated);
  REQUIRE(having.having);
  CHECK(expr_to_string(*having.having) == "(agg0 > 1)");
}

TEST_CASE("binder: GROUP BY ordinals name select items") {
  BoundSelect q =
      bind_sql("SELECT l_returnflag, SUM(l_tax) FROM lineitem GROUP BY 1 ORDER BY 2 DESC");
  REQUIRE(q.group_keys.size() == 1);
  CHECK(expr_to_string(*q.group_keys[0]) == "#0:l_returnflag");
  CHECK(q.order_by[0].output == 1);
  CHECK(q.order_by[0].descending);
  check_failure("SELECT l_returnflag, SUM(l_tax) FROM lineitem GROUP BY 2", ErrorKind::Binder,
                "aggregate functions are not allowed in GROUP BY", 22);
  check_failure("SELECT l_returnflag, SUM(l_tax) FROM lineitem GROUP BY 3", ErrorKind::Binder,
                "GROUP BY position 3 is not in select list", 56);
}

TEST_CASE("binder: GROUP BY names a select alias unless an input column has the name") {
  BoundSelect q =
      bind_sql("SELECT l_tax * 2 AS double_tax, COUNT(*) FROM lineitem GROUP BY double_tax");
  CHECK(expr_to_string(*q.group_keys[0]) == "(#0:l_tax * 2)");
  CHECK(expr_to_string(*q.outputs[0].expr) == "key0");
  // l_quantity is a column of lineitem, so GROUP BY l_quantity groups by the column.
  check_failure("SELECT l_tax AS l_quantity, COUNT(*) FROM lineitem GROUP BY l_quantity",
                ErrorKind::Binder,
                "column \"l_tax\" must appear in the GROUP BY clause or be used in an aggregate "
                "function",
                8);
  check_failure("SELECT SUM(l_tax) AS total FROM lineitem GROUP BY total", ErrorKind::Binder,
                "aggregate functions are not allowed in GROUP BY", 8);
}

TEST_CASE("binder: SELECT * is an error in an aggregated query") {
  Failure f = bind_failure("SELECT * FROM lineitem GROUP BY l_returnflag");
  CHECK(f.kind == ErrorKind::Binder);
  CHECK(f.column == 8);
  CHECK(bind_failure("SELECT *, COUNT(*) FROM lineitem").kind == ErrorKind::Binder);
}

TEST_CASE("binder: SELECT DISTINCT without aggregates groups by the select items") {
  BoundSelect q = bind_sql("SELECT DISTINCT l_returnflag, l_linestatus FROM lineitem");
  CHECK(q.aggregated);
  CHECK_FALSE(q.distinct_outputs);
  REQUIRE(q.group_keys.size() == 2);
  CHECK(q.aggregates.empty());
  CHECK(expr_to_string(*q.outputs[0].expr) == "key0");
  CHECK(expr_to_string(*q.outputs[1].expr) == "key1");
  CHECK(q.outputs[1].expr->type == Type::char_(1));
  BoundSelect same = bind_sql("SELECT DISTINCT l_tax, l_tax FROM lineitem ORDER BY l_tax");
  CHECK(same.group_keys.size() == 1);
  CHECK(expr_to_string(*same.outputs[1].expr) == "key0");
  CHECK(same.outputs.size() == 2);
}

TEST_CASE("binder: SELECT DISTINCT over an aggregated query dedups the outputs") {
  BoundSelect q =
      bind_sql("SELECT DISTINCT COUNT(*) FROM lineitem GROUP BY l_returnflag ORDER BY COUNT(*)");
  CHECK(q.distinct_outputs);
  CHECK(q.aggregated);
  CHECK(q.outputs.size() == 1);
  CHECK(q.order_by[0].output == 0);
}

TEST_CASE("binder: with SELECT DISTINCT - ORDER BY must use the select list") {
  check_failure("SELECT DISTINCT l_returnflag FROM lineitem ORDER BY l_tax", ErrorKind::Binder,
                "for SELECT DISTINCT, ORDER BY expressions must appear in select list", 53);
  CHECK(bind_sql("SELECT DISTINCT l_returnflag AS f FROM lineitem ORDER BY l_returnflag")
            .order_by[0]
            .output == 0);
}

// ---------------------------------------------------------------- ORDER BY, LIMIT

TEST_CASE("binder: ORDER BY ordinals and output names") {
  BoundSelect q = bind_sql("SELECT l_tax, l_quantity FROM lineitem ORDER BY 2 DESC, l_tax");
  REQUIRE(q.order_by.size() == 2);
  CHECK(q.order_by[0].output == 1);
  CHECK(q.order_by[0].descending);
  CHECK(q.order_by[1].output == 0);
  CHECK(q.outputs.size() == 2);
  check_failure("SELECT l_tax FROM lineitem ORDER BY 3", ErrorKind::Binder,
                "ORDER BY position 3 is not in select list", 37);
  check_failure("SELECT l_tax FROM lineitem ORDER BY 0", ErrorKind::Binder,
                "ORDER BY position 0 is not in select list", 37);
}

TEST_CASE("binder: ORDER BY prefers output names over input columns") {
  BoundSelect q =
      bind_sql("SELECT l_tax AS l_quantity, l_quantity AS q FROM lineitem ORDER BY l_quantity");
  CHECK(q.order_by[0].output == 0);
  CHECK(q.outputs.size() == 2);
  BoundSelect alias = bind_sql("SELECT l_tax * 2 AS x FROM lineitem ORDER BY x DESC");
  CHECK(alias.order_by[0].output == 0);
  check_failure("SELECT l_tax AS x, l_quantity AS x FROM lineitem ORDER BY x", ErrorKind::Binder,
                "ORDER BY \"x\" is ambiguous", 59);
}

TEST_CASE("binder: ORDER BY expressions reuse equal outputs or add hidden ones") {
  BoundSelect reuse = bind_sql("SELECT l_tax + 1 FROM lineitem ORDER BY l_tax + 1");
  CHECK(reuse.outputs.size() == 1);
  CHECK(reuse.order_by[0].output == 0);
  BoundSelect hidden = bind_sql("SELECT l_tax FROM lineitem ORDER BY l_quantity, l_quantity");
  REQUIRE(hidden.outputs.size() == 2);
  CHECK(hidden.visible_outputs == 1);
  CHECK(hidden.order_by[0].output == 1);
  CHECK(hidden.order_by[1].output == 1);
  CHECK(expr_to_string(*hidden.outputs[1].expr) == "#1:l_quantity");
  BoundSelect agg =
      bind_sql("SELECT l_returnflag FROM lineitem GROUP BY l_returnflag ORDER BY SUM(l_tax) DESC");
  REQUIRE(agg.outputs.size() == 2);
  CHECK(agg.visible_outputs == 1);
  CHECK(agg.outputs[1].expr->kind == ExprKind::AggregateRef);
  CHECK(agg.aggregates.size() == 1);
  CHECK(agg.order_by[0].output == 1);
}

TEST_CASE("binder: NULL ordering defaults to LAST for ASC and FIRST for DESC") {
  BoundSelect q = bind_sql(
      "SELECT l_tax FROM lineitem ORDER BY l_tax, l_tax DESC, l_tax NULLS FIRST, l_tax DESC "
      "NULLS LAST");
  REQUIRE(q.order_by.size() == 4);
  CHECK_FALSE(q.order_by[0].nulls_first);
  CHECK(q.order_by[1].nulls_first);
  CHECK(q.order_by[2].nulls_first);
  CHECK_FALSE(q.order_by[3].nulls_first);
}

TEST_CASE("binder: LIMIT and OFFSET are non-negative integer constants or parameters") {
  BoundSelect q = bind_sql("SELECT l_tax FROM lineitem LIMIT 10 OFFSET 5");
  CHECK(q.limit == 10);
  CHECK(q.offset == 5);
  CHECK(q.limit_parameter == -1);
  BoundSelect none = bind_sql("SELECT l_tax FROM lineitem");
  CHECK_FALSE(none.limit.has_value());
  CHECK(none.offset == 0);
  check_failure("SELECT l_tax FROM lineitem LIMIT -1", ErrorKind::Type,
                "LIMIT must not be negative", 34);
  check_failure("SELECT l_tax FROM lineitem LIMIT 1.5", ErrorKind::Type,
                "argument of LIMIT must be an integer constant or a parameter", 34);
}

// ---------------------------------------------------------------- explain, IR helpers

TEST_CASE("binder: explain shows every phase") {
  BoundSelect q = bind_sql(trim_semicolon(tpch_q1()) + " LIMIT 3");
  std::string text = explain(q);
  CHECK(text.find("table: lineitem") != std::string::npos);
  CHECK(text.find("#0 l_returnflag CHAR(1)") != std::string::npos);
  CHECK(text.find("filter: (#6:l_shipdate <= DATE '1998-09-02')") != std::string::npos);
  CHECK(text.find("key1 = #1:l_linestatus") != std::string::npos);
  CHECK(text.find("agg0 = SUM(#2:l_quantity) -> DECIMAL(38,2) [SumWide]") != std::string::npos);
  CHECK(text.find("agg7 = COUNT(*) -> BIGINT [Count]") != std::string::npos);
  CHECK(text.find("[AvgWide]") != std::string::npos);
  CHECK(text.find("count_order = agg7 BIGINT") != std::string::npos);
  CHECK(text.find("output 1 ASC NULLS LAST") != std::string::npos);
  CHECK(text.find("limit: 3") != std::string::npos);
  BoundSelect p = bind_sql("SELECT l_quantity * 1.00 FROM lineitem WHERE l_tax > ?");
  CHECK(expr_to_string(*p.outputs[0].expr) == "(#0:l_quantity * 1.00)");
  CHECK(explain(p).find("$1 DECIMAL(15,2)") != std::string::npos);
}

TEST_CASE("binder: expr_equal compares structure - not source text") {
  ExprPtr a = make_column_ref(0, kMoney, "l_tax");
  ExprPtr b = make_column_ref(0, kMoney, "tax");
  CHECK(expr_equal(*a, *b));
  CHECK_FALSE(expr_equal(*a, *make_column_ref(1, kMoney, "l_tax")));
  CHECK_FALSE(expr_equal(*a, *make_column_ref(0, Type::decimal(15, 3), "l_tax")));
  ExprPtr one = make_constant(Value::from_int(1), Type::integer());
  ExprPtr two = make_constant(Value::from_int(2), Type::integer());
  CHECK_FALSE(expr_equal(*make_node(ExprKind::Arith, Type::integer(), {one, one}, kAdd),
                         *make_node(ExprKind::Arith, Type::integer(), {one, two}, kAdd)));
  CHECK_FALSE(expr_equal(*make_node(ExprKind::Arith, Type::integer(), {one, one}, kAdd),
                         *make_node(ExprKind::Arith, Type::integer(), {one, one}, kSub)));
  CHECK(expr_equal(*make_string_constant("x"), *make_string_constant("x", "'x'")));
  CHECK_FALSE(expr_equal(*make_string_constant("x"), *make_string_constant("y")));
  CHECK(expr_equal(*make_null_constant(Type::date()), *make_null_constant(Type::date())));
  CHECK_FALSE(expr_equal(*make_null_constant(Type::date()),
                         *make_constant(Value::from_int(0), Type::date())));
}

TEST_CASE("binder: is_constant_expr - contains_kind and expr_to_string") {
  ExprPtr col = make_column_ref(3, Type::integer(), "x");
  ExprPtr one = make_constant(Value::from_int(1), Type::integer());
  ExprPtr sum = make_node(ExprKind::Arith, Type::integer(), {col, one}, kMul);
  CHECK(expr_to_string(*sum) == "(#3:x * 1)");
  CHECK_FALSE(is_constant_expr(*sum));
  CHECK(is_constant_expr(*make_cast(one, Type::bigint())));
  CHECK(contains_kind(*sum, ExprKind::Constant));
  CHECK_FALSE(contains_kind(*sum, ExprKind::AggregateRef));
  ExprPtr dec = make_constant(Value::from_decimal(-705), Type::decimal(5, 2));
  CHECK(expr_to_string(*dec) == "-7.05");
  CHECK(expr_to_string(*make_string_constant("it's")) == "'it''s'");
  CHECK(expr_to_string(*make_null_constant(Type::integer())) == "NULL");
  CHECK(expr_to_string(*make_cast(col, Type::decimal(12, 2))) == "CAST(#3:x AS DECIMAL(12,2))");
}

TEST_CASE("binder: edit distance and name suggestions") {
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("same", "same") == 0);
  std::vector<std::string> names = {"l_quantity", "l_tax", "l_discount"};
  CHECK(nearest_name("l_quantiy", names) == "l_quantity");
  CHECK(nearest_name("l_tx", names) == "l_tax");
  CHECK_FALSE(nearest_name("price", names).has_value());
  // Long names tolerate a third of their length in edits.
  CHECK(nearest_name("l_xtnddprice", {"l_extendedprice"}) == "l_extendedprice");  // 3 edits
  CHECK_FALSE(nearest_name("xyz", {"abc"}).has_value());
  CHECK(did_you_mean("l_tx", names) == " (did you mean \"l_tax\"?)");
  CHECK(did_you_mean("zzzzzz", names).empty());
}

// ---------------------------------------------------------------- bind_constant

TEST_CASE("binder: bind_constant converts INSERT values to the column type") {
  ExprPtr price = bind_constant(*parse_value("'12.5'"), kMoney);
  CHECK(price->kind == ExprKind::Constant);
  CHECK(price->type == kMoney);
  CHECK(price->value.d == 1250);
  CHECK(bind_constant(*parse_value("5"), kMoney)->value.d == 500);
  CHECK(bind_constant(*parse_value("-5"), Type::integer())->value.i == -5);
  CHECK(bind_constant(*parse_value("'1998-12-01'"), Type::date())->value.i ==
        days_from_civil(1998, 12, 1));
  ExprPtr null = bind_constant(*parse_value("NULL"), Type::date());
  CHECK(null->value.null);
  CHECK(null->type == Type::date());
  ExprPtr text = bind_constant(*parse_value("42"), Type::varchar(10));
  CHECK(text->str == "42");
  CHECK(text->type == Type::varchar(10));
  CHECK(bind_constant(*parse_value("'ab'"), Type::char_(2))->str == "ab");
  auto kind_of = [](const std::string& value, const Type& t) {
    try {
      bind_constant(*parse_value(value), t);
    } catch (const Error& e) {
      return e.kind();
    }
    return ErrorKind::Internal;
  };
  CHECK(kind_of("'abc'", Type::varchar(2)) == ErrorKind::Type);
  CHECK(kind_of("'x'", Type::integer()) == ErrorKind::Type);
  CHECK(kind_of("DATE '1998-01-01'", Type::integer()) == ErrorKind::Type);
  CHECK(kind_of("100000", Type::smallint()) == ErrorKind::Type);
  CHECK(kind_of("x", Type::integer()) == ErrorKind::Binder);
}

// ---------------------------------------------------------------- more corners

TEST_CASE("binder: string literals next to BOOLEANs and in WHERE read as booleans") {
  CHECK(ir_of("b = 'true'") == "(#0:b = TRUE)");
  BoundSelect q = bind_sql("SELECT i FROM alltypes WHERE 'no'");
  REQUIRE(q.filter);
  CHECK(q.filter->kind == ExprKind::Constant);
  CHECK(q.filter->value.i == 0);
  check_failure("SELECT i FROM alltypes WHERE 'maybe'", ErrorKind::Type,
                "invalid input syntax for type BOOLEAN: \"maybe\"", 30);
}

TEST_CASE("binder: NULL in IN lists and LIKE patterns") {
  ExprPtr in = bound("i IN (1, NULL)");
  REQUIRE(in->children.size() == 3);
  CHECK(in->children[2]->type == Type::integer());
  CHECK(in->children[2]->value.null);
  ExprPtr like = bound("v LIKE NULL");
  CHECK(like->kind == ExprKind::Constant);
  CHECK(like->type == Type::boolean());
  CHECK(like->value.null);
}

TEST_CASE("binder: GROUP BY and ORDER BY reject ambiguous names and odd constants") {
  check_failure("SELECT l_tax AS x, l_quantity AS x FROM lineitem GROUP BY x", ErrorKind::Binder,
                "GROUP BY \"x\" is ambiguous", 59);
  check_failure("SELECT l_tax FROM lineitem ORDER BY 'a'", ErrorKind::Binder,
                "non-integer constant 'a' in ORDER BY", 37);
  check_failure("SELECT l_tax FROM lineitem LIMIT COUNT(*)", ErrorKind::Binder,
                "aggregate functions are not allowed in LIMIT", 34);
}

TEST_CASE("binder: SELECT DISTINCT * groups by every column") {
  BoundSelect q = bind_sql("SELECT DISTINCT * FROM alltypes");
  CHECK(q.aggregated);
  CHECK(q.group_keys.size() == 12);
  CHECK(q.outputs[11].expr->kind == ExprKind::GroupKeyRef);
  CHECK(q.outputs[11].expr->index == 11);
}

TEST_CASE("binder: parameters and constants survive the grouping rewrite") {
  BoundSelect q =
      bind_sql("SELECT l_returnflag, SUM(l_tax) * ? + 1 FROM lineitem GROUP BY l_returnflag");
  CHECK(q.parameter_types == std::vector<Type>{Type::decimal(38, 2)});
  CHECK(expr_to_string(*q.outputs[1].expr) == "((agg0 * $1) + 1)");
  check_failure("SELECT COUNT(*) FROM lineitem ORDER BY l_tax", ErrorKind::Binder,
                "column \"l_tax\" must appear in the GROUP BY clause or be used in an aggregate "
                "function",
                40);
}

TEST_CASE("binder: HAVING without GROUP BY or aggregates makes one group") {
  BoundSelect q = bind_sql("SELECT 1 AS one FROM lineitem HAVING 2 > 1");
  CHECK(q.aggregated);
  CHECK(q.having == nullptr);  // folded to TRUE
  CHECK(q.group_keys.empty());
  CHECK(q.aggregates.empty());
}

TEST_CASE("binder: an untyped CASE takes its type from where it is used") {
  ExprPtr e = bound("CASE WHEN b THEN NULL END = t");
  REQUIRE(e->kind == ExprKind::Compare);
  const Expr& case_node = *e->children[0];
  CHECK(case_node.kind == ExprKind::Case);
  CHECK(case_node.type == Type::date());
  CHECK(case_node.children[1]->type == Type::date());
  CHECK(case_node.children[2]->type == Type::date());
  CHECK(type_of("CASE WHEN b THEN NULL END").is_string());
}

TEST_CASE("binder: bind_constant accepts booleans and rejects parameters") {
  CHECK(bind_constant(*parse_value("TRUE"), Type::boolean())->value.i == 1);
  CHECK(bind_constant(*parse_value("'f'"), Type::boolean())->value.i == 0);
  CHECK(bind_constant(*parse_value("1.5"), Type::double_())->value.f == 1.5);
  CHECK(bind_constant(*parse_value("2.345"), kMoney)->value.d == 235);  // rounded
  try {
    bind_constant(*parse_value("?"), Type::integer());
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Binder);
    CHECK(std::string(e.what()) == "there is no parameter $1");
  }
}

TEST_CASE("binder: * is an argument only of COUNT") {
  check_failure("SELECT SUM(*) FROM alltypes", ErrorKind::Binder,
                "SUM(*) is not valid; only COUNT(*) counts rows", 8);
  check_failure("SELECT ABS(*) FROM alltypes", ErrorKind::Binder,
                "* specified, but abs is not an aggregate function", 8);
  check_failure("SELECT ABS(DISTINCT i) FROM alltypes", ErrorKind::Binder,
                "DISTINCT specified, but abs is not an aggregate function", 8);
}
