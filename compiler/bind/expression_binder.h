// AST expression -> typed IR for one clause. Each clause binds with its own rules (may it
// hold aggregate calls?) and names itself in its errors, DuckDB style: a WHERE binder says
// "aggregate functions are not allowed in WHERE". The methods are spread by kind over
// expression_binder.cpp (dispatch, names, logic), operators.cpp (arithmetic, comparisons,
// BETWEEN, IN, LIKE), functions.cpp (ABS/ROUND/EXTRACT, CASE, CAST), aggregates.cpp,
// scalar_functions.cpp and string_functions.cpp (the scalar function table).
#pragma once

#include "compiler/bind/coerce.h"
#include "compiler/bind/context.h"
#include "compiler/bind/scalar_functions.h"
#include "compiler/parse/ast.h"

namespace tally {

struct ClauseRules {
  const char* clause;  // "SELECT", "WHERE", "GROUP BY", ... as errors name it
  bool allows_aggregates = false;
};

class ExpressionBinder {
 public:
  ExpressionBinder(BindContext& ctx, ClauseRules rules) : ctx_(ctx), rules_(rules) {}

  // A clause's expression, typed (NULLs alone become VARCHAR) and constant-folded.
  ExprPtr bind_root(const ast::Expr& e);
  // WHERE / HAVING: must be BOOLEAN ("argument of WHERE must be type BOOLEAN, not ...").
  ExprPtr bind_condition(const ast::Expr& e);

  // One expression, unfolded; it may still be untyped (NULL, parameter).
  ExprPtr bind(const ast::Expr& e);
  // The common type of `items` (a VALUES column), as CASE results are unified; NULL when
  // all are untyped. Errors name `construct`: "VALUES types INTEGER and VARCHAR ...".
  Type unified_type(const std::vector<const ast::Expr*>& items, const char* construct);

 private:
  Operand bind_operand(const ast::Expr& e) { return make_operand(bind(e), e); }
  // The operand as BOOLEAN, as the argument of `what` ("AND", "CASE/WHEN", ...).
  ExprPtr require_boolean(Operand op, const char* what);

  ExprPtr bind_literal(const ast::Expr& e);
  ExprPtr bind_unary(const ast::Expr& e);
  ExprPtr bind_binary(const ast::Expr& e);
  ExprPtr bind_logic(const ast::Expr& e, ExprKind kind);
  ExprPtr bind_is_null(const ast::Expr& e);
  ExprPtr bind_subquery(const ast::Expr& e);  // subqueries.cpp

  // operators.cpp
  ExprPtr bind_arith(const ast::Expr& site, int op, const ast::Expr& left, const ast::Expr& right);
  // `d` +/- the INTERVAL literal `interval` (bound), or `interval` + `d` (interval_left).
  ExprPtr bind_date_interval(const ast::Expr& site, int op, const Operand& interval, Operand d,
                             bool interval_left);
  ExprPtr bind_compare(const ast::Expr& site, int op, const ast::Expr& left,
                       const ast::Expr& right);
  ExprPtr compare_operands(const ast::Expr& site, int op, Operand a, Operand b);
  ExprPtr bind_between(const ast::Expr& e);
  ExprPtr bind_in(const ast::Expr& e);
  // value IN (items): ops[0] the value; all unified to one type. e.negated: NOT IN.
  ExprPtr in_list(const ast::Expr& e, std::vector<Operand> ops);
  ExprPtr bind_like(const ast::Expr& e);
  // "cannot apply operator '+' to DATE and VARCHAR in "a + b""
  [[noreturn]] void fail_operator(const ast::Expr& site, const std::string& symbol,
                                  const std::string& a, const std::string& b);
  // The common type of CASE results, COALESCE or IN items; converts them all to it.
  Type unify(std::vector<Operand>& ops, const char* construct);

  // functions.cpp
  ExprPtr bind_function(const ast::Expr& e);

  // aggregates.cpp
  ExprPtr bind_aggregate(const ast::Expr& e, const AggregateFunction& named);
  void bind_aggregate_arguments(const ast::Expr& e, const AggregateFunction& f,
                                AggregateCall& call);
  void bind_aggregate_order(const ast::Expr& e, AggregateCall& call);
  double aggregate_fraction(const AggregateFunction& f, const ast::Expr& arg);
  std::string aggregate_separator(const AggregateFunction& f, const ast::Expr& arg);
  ExprPtr aggregate_argument(const ast::Expr& arg, AggregateTyping (*typing)(const Type&));
  ExprPtr bind_abs(const ast::Expr& e);
  ExprPtr bind_round(const ast::Expr& e);
  ExprPtr bind_extract(const ast::Expr& e);
  ExprPtr bind_coalesce(const ast::Expr& e);
  ExprPtr bind_case(const ast::Expr& e);
  ExprPtr bind_cast(const ast::Expr& e);
  // The single numeric argument of ABS/ROUND.
  ExprPtr numeric_argument(const ast::Expr& call, const ast::Expr& arg);

  // aggregate_filter.cpp: FILTER (WHERE ...) and GROUPING()
  void apply_filter(AggregateCall& call, const ast::Expr& filter);
  ExprPtr bind_grouping(const ast::Expr& e);

  // scalar_functions.cpp: the functions of ExprKind::Function, NULLIF and date_part
  ExprPtr bind_scalar_function(const ast::Expr& e, const ScalarEntry& f);
  ExprPtr bind_rounding(const ast::Expr& e, int fn);
  ExprPtr bind_double_function(const ast::Expr& e, int fn);
  ExprPtr bind_nullif(const ast::Expr& e);
  ExprPtr bind_date_function(const ast::Expr& e, const ScalarEntry& f);
  int constant_digits(const ast::Expr& call, const ast::Expr& arg);
  std::string constant_name(const ast::Expr& call, const ast::Expr& arg);
  // A DATE or TIMESTAMP argument; a TIME too where `time_too` (EXTRACT, date_part).
  ExprPtr date_argument(const ast::Expr& call, const ast::Expr& arg, bool time_too = false);

  // string_functions.cpp
  ExprPtr bind_string_function(const ast::Expr& e, const ScalarEntry& f);
  ExprPtr bind_concat_operator(const ast::Expr& e);  // a || b
  ExprPtr string_argument(const ast::Expr& call, const ast::Expr& arg);
  ExprPtr integer_argument(const ast::Expr& call, const ast::Expr& arg);  // as BIGINT
  ExprPtr as_text(Operand op);  // strings stay, other values are CAST to VARCHAR

  BindContext& ctx_;
  ClauseRules rules_;
  bool inside_aggregate_ = false;
};

// A new IR node carrying the source text and location of `site`.
std::shared_ptr<Expr> new_node(ExprKind kind, Type type, const ast::Expr& site,
                               std::vector<ExprPtr> children = {}, int op = 0);

}  // namespace tally
