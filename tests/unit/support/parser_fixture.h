// What the parser's tests share (tests/unit/parser_test.cpp, parser_values_test.cpp): ASTs
// written as S-expressions ("1 + 2 * 3" reads "(+ 1 (* 2 3))"), statements parsed one at a
// time, and the error a text must raise (kind, message, line and column).
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compiler/parse/parser.h"
#include "tests/unit/support/text_check.h"

namespace tally::parser_test {

inline std::string type_text(const ast::TypeName& type) {
  std::string text = type.name;
  for (size_t i = 0; i < type.params.size(); ++i) {
    text += (i == 0 ? "(" : ",") + std::to_string(type.params[i]);
  }
  return type.params.empty() ? text : text + ")";
}

inline std::string sexpr(const ast::Expr& e);

inline std::string sexpr_children(const ast::Expr& e, size_t from = 0) {
  std::string text;
  for (size_t i = from; i < e.children.size(); ++i) text += " " + sexpr(*e.children[i]);
  return text;
}

inline std::string interval_text(const ast::Expr& e) {
  return "INTERVAL(" + std::to_string(e.interval_months) + "mon " +
         std::to_string(e.interval_days) + "d " + std::to_string(e.interval_micros) + "us)";
}

inline std::string sexpr_case(const ast::Expr& e) {
  std::string text = "(CASE";
  if (e.case_operand) text += " " + sexpr(*e.case_operand);
  for (size_t i = 0; i + 1 < e.children.size(); i += 2) {
    text += " (WHEN " + sexpr(*e.children[i]) + " " + sexpr(*e.children[i + 1]) + ")";
  }
  if (e.else_expr) text += " (ELSE " + sexpr(*e.else_expr) + ")";
  return text + ")";
}

inline std::string sexpr_function(const ast::Expr& e) {
  if (e.star) return "(" + e.name + " *)";
  if (!e.extract_field.empty())
    return "(" + e.name + " " + e.extract_field + sexpr_children(e) + ")";
  return "(" + e.name + (e.distinct ? " DISTINCT" : "") + sexpr_children(e) + ")";
}

// The expression as an S-expression: operators first, children in order.
inline std::string sexpr(const ast::Expr& e) {
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

inline ast::Statement parse_one(const std::string& sql) {
  std::vector<ast::Statement> statements = parse_script(sql);
  REQUIRE(statements.size() == 1);
  return std::move(statements[0]);
}

inline ast::SelectStmt parse_select(const std::string& sql) {
  ast::Statement statement = parse_one(sql);
  REQUIRE(std::holds_alternative<ast::SelectStmt>(statement.body));
  return std::move(std::get<ast::SelectStmt>(statement.body));
}

// The first select item's expression, as an S-expression.
inline std::string expr_of(const std::string& expression) {
  ast::SelectStmt select = parse_select("SELECT " + expression);
  REQUIRE(select.items.size() == 1);
  REQUIRE(select.items[0].expr);
  return sexpr(*select.items[0].expr);
}

inline std::string where_of(const std::string& condition) {
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

inline Failure parse_failure(const std::string& sql) {
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

inline Failure syntax_failure(const std::string& sql) {
  Failure failure = parse_failure(sql);
  CHECK(failure.kind == ErrorKind::Syntax);
  return failure;
}

using tally::contains;

template <typename Body>
inline Body parse_body(const std::string& sql) {
  ast::Statement statement = parse_one(sql);
  REQUIRE(std::holds_alternative<Body>(statement.body));
  return std::move(std::get<Body>(statement.body));
}

}  // namespace tally::parser_test
