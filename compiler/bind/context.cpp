#include "compiler/bind/context.h"

#include <fmt/format.h>

#include "compiler/common/suggest.h"

namespace tally {

BindContext::BindContext(const TableSchema* table, std::string reference_name, int parameter_count)
    : table_(table),
      reference_name_(std::move(reference_name)),
      parameter_types_(static_cast<size_t>(std::max(parameter_count, 0)), Type::null()),
      parameter_locations_(parameter_types_.size()) {}

const SubqueryResult& BindContext::subquery(const ast::Expr& node) const {
  if (subqueries_ != nullptr) {
    if (auto found = subqueries_->find(&node); found != subqueries_->end()) return found->second;
  }
  throw Error(ErrorKind::Unsupported, "subqueries are not supported here", node.location);
}

bool BindContext::has_column(const std::string& name) const {
  return table_ && table_->find_column(name) >= 0;
}

ExprPtr BindContext::column(const std::string& qualifier, const std::string& name,
                            SourceLocation location) {
  if (table_ && !qualifier.empty() && qualifier != reference_name_) {
    throw Error(ErrorKind::Binder,
                fmt::format("missing FROM-clause entry for table \"{}\"", qualifier), location);
  }
  int table_column = table_ ? table_->find_column(name) : -1;
  if (table_column < 0) {
    std::vector<std::string> names;
    if (table_) {
      for (const auto& c : table_->columns) names.push_back(c.name);
    }
    throw Error(ErrorKind::Binder,
                fmt::format("column \"{}\" does not exist{}", name, did_you_mean(name, names)),
                location);
  }
  int index = -1;
  for (size_t i = 0; i < scan_.size(); ++i) {
    if (scan_[i].table_column == table_column) index = static_cast<int>(i);
  }
  const ColumnSchema& schema = table_->columns[static_cast<size_t>(table_column)];
  if (index < 0) {
    index = static_cast<int>(scan_.size());
    scan_.push_back({table_column, schema.name, schema.type});
  }
  auto ref = std::make_shared<Expr>(*make_column_ref(index, schema.type, schema.name));
  ref->location = location;
  return ref;
}

ExprPtr BindContext::parameter(int index, SourceLocation location) {
  if (index < 0 || static_cast<size_t>(index) >= parameter_types_.size()) {
    throw Error(ErrorKind::Binder, fmt::format("there is no parameter ${}", index + 1), location);
  }
  parameter_locations_[static_cast<size_t>(index)] = location;
  auto p = std::make_shared<Expr>();
  p->kind = ExprKind::Parameter;
  p->type = parameter_types_[static_cast<size_t>(index)];
  p->index = index;
  p->location = location;
  return p;
}

ExprPtr BindContext::type_parameter(const Expr& parameter, const Type& type) {
  parameter_types_[static_cast<size_t>(parameter.index)] = type;
  auto p = std::make_shared<Expr>(parameter);
  p->type = type;
  return p;
}

void BindContext::fail_untyped_parameter(int index) const {
  throw Error(ErrorKind::Type,
              fmt::format("could not determine the type of parameter ${}; write CAST(? AS type)",
                          index + 1),
              parameter_locations_[static_cast<size_t>(index)]);
}

void BindContext::check_parameters_typed() const {
  for (size_t i = 0; i < parameter_types_.size(); ++i) {
    if (parameter_types_[i].id == TypeId::Null) fail_untyped_parameter(static_cast<int>(i));
  }
}

namespace {

// The holistic aggregates' constants and ORDER BY keys (QUANTILE_CONT(x, 0.25)).
bool same_constants(const AggregateCall& a, const AggregateCall& b) {
  if (a.fraction != b.fraction || a.descending != b.descending || a.separator != b.separator ||
      a.order.size() != b.order.size()) {
    return false;
  }
  for (size_t k = 0; k < a.order.size(); ++k) {
    const AggregateOrder &x = a.order[k], &y = b.order[k];
    if (!expr_equal(*x.expr, *y.expr) || x.descending != y.descending ||
        x.nulls_first != y.nulls_first) {
      return false;
    }
  }
  return true;
}

}  // namespace

int BindContext::add_aggregate(AggregateCall call) {
  for (size_t i = 0; i < aggregates_.size(); ++i) {
    const AggregateCall& a = aggregates_[i];
    auto same = [](const ExprPtr& x, const ExprPtr& y) {
      return (!x && !y) || (x && y && expr_equal(*x, *y));
    };
    if (a.kind == call.kind && a.distinct == call.distinct && same(a.arg, call.arg) &&
        same(a.key, call.key) && same_constants(a, call)) {
      return static_cast<int>(i);
    }
  }
  aggregates_.push_back(std::move(call));
  return static_cast<int>(aggregates_.size() - 1);
}

}  // namespace tally
