// The binder: SQL text (through parse_script) -> BoundSelect, checked against the typing
// rules and the error messages the SQL reference promises: literals, arithmetic, comparisons,
// logic, CASE/COALESCE, CAST and scalar functions (names, parameters, aggregates, grouping and
// ORDER BY: binder_rules_test.cpp).
#include "compiler/bind/binder.h"

#include <doctest/doctest.h>

#include <string>

#include "compiler/common/date.h"
#include "compiler/common/suggest.h"
#include "compiler/functions/aggregate_function.h"
#include "tests/unit/support/binder_fixture.h"

using namespace tally;
using namespace tally::binder_test;

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
                "EXTRACT needs a DATE, TIMESTAMP, TIME or INTERVAL, not INTEGER", 25);
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
