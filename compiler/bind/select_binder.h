// SELECT -> BoundSelect. The clauses are bound in text order (SELECT, WHERE, GROUP BY,
// HAVING, ORDER BY, LIMIT) to the form below the aggregation (ColumnRef, AggregateRef);
// an aggregated query then has its outputs and HAVING rewritten over group keys and
// aggregates. binder.cpp drives it; grouping.cpp and order.cpp hold the clauses with their
// own rules.
#pragma once

#include "compiler/bind/context.h"
#include "compiler/bind/expression_binder.h"
#include "compiler/parse/ast.h"

namespace tally {

struct SelectOutput {
  std::string name;
  ExprPtr expr;                       // below the aggregation until the rewrite
  const ast::Expr* source = nullptr;  // null for columns expanded from *
  SourceLocation location;
};

// The 0-based select item an ordinal ("GROUP BY 2") names; Error(Binder) when out of range.
int select_position(const ast::Expr& ordinal, size_t visible_outputs, const char* clause);

// A grouping set is a mask of 64 bits over the group keys.
constexpr size_t kMaxGroupKeys = 64;

class SelectBinder {
 public:
  SelectBinder(const ast::SelectStmt& stmt, const Catalog& catalog, int parameter_count);
  BoundSelect bind();
  void set_subqueries(const SubqueryValues* subqueries) { ctx_.set_subqueries(subqueries); }

 private:
  void bind_select_list();
  void bind_where();
  void bind_having();

  // grouping.cpp
  void bind_group_by();
  // The index of `key` among the group keys, added if new.
  size_t add_group_key(const ExprPtr& key);
  ExprPtr rewrite_grouping(const ExprPtr& e, SourceLocation fallback) const;
  ExprPtr group_item(const ast::Expr& item);
  // The visible output a GROUP BY/ORDER BY name refers to (output names), or -1.
  int output_named(const std::string& name, const ast::Expr& item, const char* clause) const;
  void rewrite_above_aggregation();
  void rewrite_distinct_as_grouping();
  ExprPtr rewrite_expr(const ExprPtr& e, SourceLocation fallback) const;

  // order.cpp
  void bind_order_by();
  int order_item(const ast::Expr& item);
  void bind_distinct_on();
  void bind_limit_offset();

  const ast::SelectStmt& stmt_;
  std::string table_name_;
  BindContext ctx_;
  std::vector<SelectOutput> outputs_;  // visible, then hidden (ORDER BY only)
  size_t visible_ = 0;
  bool has_star_ = false;
  SourceLocation star_location_;
  ExprPtr filter_;
  std::vector<ExprPtr> group_keys_;
  ExprPtr having_;
  BoundSelect result_;
};

}  // namespace tally
