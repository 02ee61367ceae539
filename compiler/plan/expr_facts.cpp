#include "compiler/plan/expr_facts.h"

#include <set>

#include "compiler/plan/string_domain.h"

namespace tally {

namespace {

void collect_columns(const Expr& e, std::set<int>& columns, bool& above_aggregation) {
  if (e.kind == ExprKind::ColumnRef) columns.insert(e.index);
  if (e.kind == ExprKind::GroupKeyRef || e.kind == ExprKind::AggregateRef) above_aggregation = true;
  for (const auto& c : e.children) collect_columns(*c, columns, above_aggregation);
}

}  // namespace

int dictionary_lookup_column(const Expr& e, const BoundSelect& query) {
  if (e.kind == ExprKind::ColumnRef || e.type.is_string()) return -1;
  std::set<int> columns;
  bool above = false;
  collect_columns(e, columns, above);
  if (above || columns.size() != 1) return -1;
  int column = *columns.begin();
  return query.scan[column].type.is_string() ? column : -1;
}

bool may_be_null(const Expr& e, const BoundSelect& query, const std::vector<ColumnStats>& stats) {
  if (dictionary_lookup_column(e, query) >= 0) return true;        // per-code values may be NULL
  if (string_read(e).kind != StringRead::Kind::None) return true;  // so may per-string ones
  auto child = [&](size_t i) { return may_be_null(*e.children[i], query, stats); };
  switch (e.kind) {
    case ExprKind::ColumnRef:
      return stats[e.index].has_nulls;
    case ExprKind::Constant:
      return e.value.null;
    case ExprKind::IsNull:
      return false;
    case ExprKind::Case:
      for (size_t i = 1; i < e.children.size(); i += 2) {
        if (child(i)) return true;
      }
      return child(e.children.size() - 1);
    case ExprKind::Coalesce:
      for (size_t i = 0; i < e.children.size(); ++i) {
        if (!child(i)) return false;
      }
      return true;
    case ExprKind::Parameter:
    case ExprKind::GroupKeyRef:
    case ExprKind::AggregateRef:
      return true;
    default:
      for (size_t i = 0; i < e.children.size(); ++i) {
        if (child(i)) return true;
      }
      return false;
  }
}

}  // namespace tally
