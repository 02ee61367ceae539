// WITH, set operations, VALUES, derived tables, range() and subquery expressions: the AST
// the transformer builds for each, and the errors it gives before anything runs.
#include <doctest/doctest.h>

#include <string>

#include "compiler/parse/ast_walk.h"
#include "compiler/parse/parser.h"

namespace {

using tally::Error;
using tally::ErrorKind;
namespace ast = tally::ast;

ast::SelectStmt parse_select(const std::string& sql) {
  std::vector<ast::Statement> statements = tally::parse_script(sql);
  REQUIRE(statements.size() == 1);
  REQUIRE(std::holds_alternative<ast::SelectStmt>(statements[0].body));
  return std::move(std::get<ast::SelectStmt>(statements[0].body));
}

Error parse_error(const std::string& sql) {
  try {
    tally::parse_script(sql);
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected an error for: " << sql);
  return Error(ErrorKind::Internal, "unreachable");
}

}  // namespace

TEST_CASE("query forms parser: WITH names its queries and their columns") {
  ast::SelectStmt s = parse_select(
      "WITH a(x, y) AS (SELECT 1, 2), b AS (SELECT x FROM a) "
      "SELECT * FROM b");
  REQUIRE(s.with.size() == 2);
  CHECK(s.with[0].name == "a");
  CHECK(s.with[0].columns == std::vector<std::string>{"x", "y"});
  CHECK(s.with[0].query->items.size() == 2);
  CHECK(s.with[1].name == "b");
  CHECK(s.with[1].query->from->name == "a");
  CHECK(s.from->name == "b");
  CHECK(ast::uses_query_forms(s));
}

TEST_CASE("query forms parser: INTERSECT binds tighter and ORDER BY applies to the whole") {
  ast::SelectStmt s =
      parse_select("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3 ORDER BY 1 DESC LIMIT 2");
  REQUIRE(s.from);
  REQUIRE(s.from->derived == ast::DerivedKind::SetOperation);
  const ast::SetOperation& top = *s.from->set_operation;
  CHECK(top.op == ast::SetOperator::Union);
  CHECK_FALSE(top.all);
  CHECK(top.left->from == std::nullopt);
  REQUIRE(top.right->from);
  CHECK(top.right->from->set_operation->op == ast::SetOperator::Intersect);
  CHECK(s.order_by.size() == 1);
  CHECK(s.limit != nullptr);
  CHECK(top.right->from->set_operation->right->order_by.empty());
}

TEST_CASE("query forms parser: EXCEPT ALL associates to the left") {
  ast::SelectStmt s = parse_select("SELECT 1 EXCEPT ALL SELECT 2 UNION ALL SELECT 3");
  const ast::SetOperation& top = *s.from->set_operation;
  CHECK(top.op == ast::SetOperator::Union);
  CHECK(top.all);
  CHECK(top.left->from->set_operation->op == ast::SetOperator::Except);
  CHECK(top.left->from->set_operation->all);
}

TEST_CASE("query forms parser: derived tables VALUES and range take aliases") {
  ast::SelectStmt derived = parse_select("SELECT x FROM (SELECT a FROM t) AS s(x)");
  CHECK(derived.from->derived == ast::DerivedKind::Subquery);
  CHECK(derived.from->name == "s");
  CHECK(derived.from->column_aliases == std::vector<std::string>{"x"});

  ast::SelectStmt values = parse_select("SELECT * FROM (VALUES (1, 'a'), (2, 'b')) v(n, s)");
  CHECK(values.from->derived == ast::DerivedKind::Subquery);
  const ast::TableRef& rows = *values.from->subquery->from;
  CHECK(rows.derived == ast::DerivedKind::Values);
  CHECK(rows.values.size() == 2);
  CHECK(rows.values[1].size() == 2);

  ast::SelectStmt bare = parse_select("VALUES (1), (NULL)");
  CHECK(bare.from->derived == ast::DerivedKind::Values);
  CHECK(bare.from->name == "valueslist");

  ast::SelectStmt series = parse_select("SELECT * FROM generate_series(1, 10, 2) g");
  CHECK(series.from->derived == ast::DerivedKind::Series);
  CHECK(series.from->series_function == "generate_series");
  CHECK(series.from->series_arguments.size() == 3);
  CHECK(series.from->name == "g");
  CHECK(parse_select("SELECT * FROM RANGE(5)").from->name == "range");
}

TEST_CASE("query forms parser: subquery expressions") {
  ast::SelectStmt s = parse_select(
      "SELECT (SELECT 1) FROM t WHERE a NOT IN (SELECT b FROM u) AND NOT EXISTS (SELECT 1)");
  std::vector<const ast::Expr*> found = ast::subquery_expressions(s);
  REQUIRE(found.size() == 3);
  CHECK(found[0]->kind == ast::ExprKind::ScalarSubquery);
  CHECK(found[1]->kind == ast::ExprKind::InSubquery);
  CHECK(found[1]->negated);
  CHECK(found[1]->children.at(0)->name == "a");
  CHECK(found[1]->subquery->from->name == "u");
  CHECK(found[2]->kind == ast::ExprKind::Exists);
  CHECK(s.where->children[1]->op == "NOT");
}

TEST_CASE("query forms parser: errors name the place") {
  Error rows = parse_error("VALUES (1, 2),\n (3)");
  CHECK(std::string(rows.what()) == "VALUES lists must all be the same length");
  CHECK(rows.location()->line == 2);
  CHECK(rows.location()->column == 2);

  Error twice = parse_error("WITH a AS (SELECT 1), a AS (SELECT 2) SELECT * FROM a");
  CHECK(std::string(twice.what()).find("WITH query name \"a\" specified more than once") !=
        std::string::npos);
  CHECK(twice.location()->column == 23);

  Error order = parse_error("SELECT 1 ORDER BY 1 UNION SELECT 2");
  CHECK(order.kind() == ErrorKind::Syntax);

  Error recursive = parse_error("WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r");
  CHECK(recursive.kind() == ErrorKind::Unsupported);
  CHECK(std::string(recursive.what()).find("WITH RECURSIVE") != std::string::npos);

  Error arguments = parse_error("SELECT * FROM range()");
  CHECK(std::string(arguments.what()).find("range() takes 1 to 3 arguments") != std::string::npos);
}
