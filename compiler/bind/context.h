// What every clause of one statement shares while it is bound: the FROM table, the scan
// columns referenced so far, the aggregate calls found so far and the parameters with the
// types inferred for them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/bind/catalog.h"
#include "compiler/bind/subquery_values.h"
#include "compiler/ir/query.h"

namespace tally {

class BindContext {
 public:
  // `table` may be null (no FROM). `reference_name` is the alias, or the table name when
  // the FROM item has none: the one qualifier column references may use.
  BindContext(const TableSchema* table, std::string reference_name, int parameter_count);

  // A ColumnRef for [qualifier.]name; the column joins the scan on its first reference.
  // Throws Error(Binder) for unknown columns (with a suggestion) and wrong qualifiers.
  ExprPtr column(const std::string& qualifier, const std::string& name, SourceLocation location);
  // True if the FROM table has a column of this name (does not touch the scan).
  bool has_column(const std::string& name) const;

  // A Parameter node: typed when its type is already known, else of type NULL.
  ExprPtr parameter(int index, SourceLocation location);
  // Records the type inferred for a parameter and returns the typed Parameter node.
  ExprPtr type_parameter(const Expr& parameter, const Type& type);
  [[noreturn]] void fail_untyped_parameter(int index) const;
  // Throws for the first parameter whose type was never inferred.
  void check_parameters_typed() const;
  const std::vector<Type>& parameter_types() const { return parameter_types_; }

  // Index of an identical aggregate call (same kind, DISTINCT and argument) or of the call
  // just added.
  int add_aggregate(AggregateCall call);
  const std::vector<AggregateCall>& aggregates() const { return aggregates_; }
  // GROUPING() was called: the query runs through the grouping-set path even when plain.
  void note_grouping_call() { grouping_called_ = true; }
  bool grouping_called() const { return grouping_called_; }

  // The session's result for a subquery node; Error(Unsupported) where none was run
  // (a prepared statement, INSERT ... VALUES).
  const SubqueryResult& subquery(const ast::Expr& node) const;
  void set_subqueries(const SubqueryValues* subqueries) { subqueries_ = subqueries; }

  const TableSchema* table() const { return table_; }
  const std::vector<ScanColumn>& scan() const { return scan_; }

 private:
  const TableSchema* table_;
  std::string reference_name_;
  std::vector<ScanColumn> scan_;
  std::vector<AggregateCall> aggregates_;
  bool grouping_called_ = false;
  std::vector<Type> parameter_types_;
  std::vector<std::optional<SourceLocation>> parameter_locations_;
  const SubqueryValues* subqueries_ = nullptr;
};

}  // namespace tally
