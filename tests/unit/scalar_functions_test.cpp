// The scalar functions (compiler/bind/scalar_functions.cpp): the types the binder gives them
// (PostgreSQL's rules), the IR they become, their errors with locations; and the CPU vector
// path (runtime/cpu/vector_ops_function.cpp) against the row evaluator on a generated table.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& types_db() {
  static Database* db = [] {
    auto* d = new Database();
    test::run_script(*d,
                     "CREATE TABLE x (sm SMALLINT, i INTEGER, g BIGINT, r REAL, f DOUBLE, "
                     "n DECIMAL(8,2), t DATE, v VARCHAR(20))");
    return d;
  }();
  return *db;
}

const Expr& bound(const std::string& expr) {
  static std::vector<std::shared_ptr<const PreparedSelect>> kept;
  kept.push_back(types_db().prepare("SELECT " + expr + " FROM x"));
  return *kept.back()->query.outputs.at(0).expr;
}

std::string type_of(const std::string& expr) { return bound(expr).type.to_string(); }

// The IR as text, column numbers dropped ("#3:v" -> "v"): they depend on the scan order.
std::string ir_of(const std::string& expr) {
  std::string text = expr_to_string(bound(expr)), out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '#') {
      out += text[i];
      continue;
    }
    while (i + 1 < text.size() && text[i + 1] != ':') ++i;
    ++i;  // the ':'
  }
  return out;
}

struct Failure {
  ErrorKind kind = ErrorKind::Internal;
  std::string message;
  int column = 0;
};

Failure failure_of(const std::string& sql) {
  try {
    types_db().prepare(sql);
  } catch (const Error& e) {
    return {e.kind(), e.what(), e.location() ? e.location()->column : 0};
  }
  FAIL("binding succeeded: " << sql);
  return {};
}

}  // namespace

TEST_CASE("scalar functions: FLOOR CEIL TRUNC keep integers and give DECIMAL scale 0") {
  CHECK(type_of("floor(i)") == "INTEGER");
  CHECK(type_of("ceil(sm)") == "SMALLINT");
  CHECK(type_of("trunc(g)") == "BIGINT");
  CHECK(type_of("floor(n)") == "DECIMAL(7,0)");  // -999999.99 -> -1000000: one more digit
  CHECK(type_of("ceiling(n)") == "DECIMAL(7,0)");
  CHECK(type_of("trunc(n)") == "DECIMAL(6,0)");
  CHECK(type_of("trunc(n, 1)") == "DECIMAL(7,1)");
  CHECK(type_of("floor(r)") == "DOUBLE");
  CHECK(type_of("trunc(f, 2)") == "DOUBLE");
  CHECK(bound("trunc(n, -2)").digits == -2);
}

TEST_CASE("scalar functions: SQRT LN LOG EXP POWER work on DOUBLE") {
  for (const char* e : {"sqrt(i)", "ln(n)", "log(g)", "log10(f)", "exp(sm)", "power(i, n)",
                        "pow(2, 3)", "log(2, i)"}) {
    INFO(e);
    CHECK(type_of(e) == "DOUBLE");
  }
  CHECK(bound("log(2, i)").op == kLogBase);
  CHECK(bound("log(i)").op == kLog10);
  CHECK(ir_of("sqrt(i)") == "sqrt(CAST(i AS DOUBLE))");
}

TEST_CASE("scalar functions: SIGN GREATEST LEAST NULLIF types") {
  CHECK(type_of("sign(n)") == "DECIMAL(1,0)");
  CHECK(type_of("sign(g)") == "BIGINT");
  CHECK(type_of("sign(r)") == "DOUBLE");
  CHECK(bound("greatest(i, n)").type.is_decimal());
  CHECK(bound("greatest(i, n)").type.scale == 2);
  CHECK(type_of("least(sm, i, g)") == "BIGINT");
  CHECK(type_of("greatest(v, 'a')") == "VARCHAR");
  CHECK(type_of("least(t, DATE '2024-01-01')") == "DATE");
  // NULLIF(a, b) is CASE WHEN a = b THEN NULL ELSE a END, typed as a.
  const Expr& nullif = bound("nullif(i, 0)");
  CHECK(nullif.kind == ExprKind::Case);
  CHECK(nullif.type.to_string() == "INTEGER");
}

TEST_CASE("scalar functions: string functions and || give VARCHAR BIGINT or BOOLEAN") {
  for (const char* e : {"upper(v)", "lower(v)", "substring(v, 2)", "substr(v, 1, 2)", "trim(v)",
                        "ltrim(v, 'x')", "replace(v, 'a', 'b')", "left(v, 2)", "right(v, i)",
                        "concat(v, i, n)", "v || 'x'", "v || i", "2 || v"}) {
    INFO(e);
    CHECK(type_of(e) == "VARCHAR");
  }
  CHECK(type_of("length(v)") == "BIGINT");
  CHECK(type_of("char_length(v)") == "BIGINT");
  CHECK(type_of("starts_with(v, 'a')") == "BOOLEAN");
  CHECK(ir_of("v || i") == "||(v, CAST(i AS VARCHAR))");
  CHECK(ir_of("substring(v FROM 2 FOR 3)") == ir_of("substring(v, 2, 3)"));
}

TEST_CASE("scalar functions: date functions") {
  CHECK(type_of("date_trunc('month', t)") == "DATE");
  CHECK(ir_of("date_trunc('Month', t)") == "date_trunc('month', t)");
  CHECK(type_of("date_part('dow', t)") == "BIGINT");
  CHECK(bound("date_part('dow', t)").kind == ExprKind::Extract);
  CHECK(bound("EXTRACT(isodow FROM t)").op == kIsoDow);
  CHECK(bound("EXTRACT('week' FROM t)").op == kWeek);
  CHECK(type_of("strftime(t, '%Y')") == "VARCHAR");
}

TEST_CASE("scalar functions: ILIKE is LIKE that ignores case") {
  const Expr& like = bound("v NOT ILIKE 'a%'");
  CHECK(like.kind == ExprKind::Like);
  CHECK(like.op == 1);
  CHECK(like.negated);
  CHECK(ir_of("v NOT ILIKE 'a%'") == "(v NOT ILIKE 'a%')");
  CHECK(bound("v LIKE 'a%'").op == 0);
}

TEST_CASE("scalar functions: errors name the argument and where it is") {
  Failure f = failure_of("SELECT sqrt(v) FROM x");
  CHECK(f.kind == ErrorKind::Type);
  CHECK(f.message == "function \"sqrt\" requires a numeric argument, not VARCHAR(20)");
  CHECK(f.column == 13);
  f = failure_of("SELECT upper(i) FROM x");
  CHECK(f.message == "function \"upper\" requires a string argument, not INTEGER");
  f = failure_of("SELECT date_trunc('hour', t) FROM x");
  CHECK(f.kind == ErrorKind::Type);
  CHECK(f.column == 19);
  f = failure_of("SELECT lenght(v) FROM x");
  CHECK(f.message == "function \"lenght\" does not exist (did you mean \"length\"?)");
  f = failure_of("SELECT date_part(v, t) FROM x");
  CHECK(f.kind == ErrorKind::Unsupported);
  f = failure_of("SELECT left(v) FROM x");
  CHECK(f.message == "function \"left\" expects 2 arguments, got 1");
}

namespace {

Database& nulls_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(20000, 0.2, 7));
    return d;
  }();
  return *db;
}

std::vector<std::string> sorted_rows(const std::string& sql, CpuPath path) {
  return test::sorted_row_texts(test::run_sql(nulls_db(), sql, {}, path));
}

std::string error_on(const std::string& sql, CpuPath path) {
  try {
    test::run_sql(nulls_db(), sql, {}, path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("scalar functions: the vector path gives the row evaluator's results") {
  const char* queries[] = {
      "SELECT c_boolean, ROUND(SUM(sqrt(c_double)), 6), SUM(floor(c_double * 3)), "
      "SUM(ceil(c_real)), SUM(trunc(c_double * -3)), SUM(sign(c_double - 1)), "
      "ROUND(SUM(exp(c_double)), 6) FROM nulls GROUP BY c_boolean",
      "SELECT ROUND(SUM(ln(c_double + 1)), 6), ROUND(SUM(log10(c_real)), 6), "
      "SUM(power(c_double, 2)), ROUND(SUM(log(2, c_real)), 6) FROM nulls",
      "SELECT floor(c_decimal), trunc(c_decimal, 1), ceil(c_smallint), COUNT(*) FROM nulls "
      "GROUP BY 1, 2, 3",
      "SELECT date_trunc('week', c_date), EXTRACT(DOW FROM c_date), date_part('doy', c_date), "
      "COUNT(*) FROM nulls GROUP BY 1, 2, 3",
      "SELECT greatest(c_smallint, 0), least(c_decimal, c_smallint), COUNT(*) FROM nulls "
      "GROUP BY 1, 2",
      "SELECT upper(c_varchar), length(c_varchar), COUNT(*) FROM nulls WHERE c_varchar ILIKE "
      "'%ET%' GROUP BY 1, 2",
      "SELECT strftime(c_date, '%a %d'), COUNT(*) FROM nulls GROUP BY 1",
  };
  for (const char* sql : queries) {
    INFO(sql);
    const auto row = sorted_rows(sql, CpuPath::Row);
    CHECK(!row.empty());
    CHECK(sorted_rows(sql, CpuPath::Vector) == row);
  }
}

TEST_CASE("scalar functions: the vector path raises the row evaluator's domain errors") {
  const char* queries[] = {
      "SELECT SUM(sqrt(c_smallint)) FROM nulls",
      "SELECT SUM(ln(c_integer)) FROM nulls WHERE c_integer < 1000",
      "SELECT SUM(power(c_smallint, 0.5)) FROM nulls WHERE c_smallint < 0",
  };
  for (const char* sql : queries) {
    INFO(sql);
    const std::string row = error_on(sql, CpuPath::Row);
    CHECK(!row.empty());
    CHECK(error_on(sql, CpuPath::Vector) == row);
  }
  // Behind a guard nothing raises.
  CHECK(error_on("SELECT SUM(CASE WHEN c_smallint >= 0 THEN sqrt(c_smallint) END) FROM nulls",
                 CpuPath::Vector) == "");
}

}  // namespace tally
