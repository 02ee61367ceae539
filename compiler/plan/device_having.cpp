#include "compiler/plan/device_having.h"

#include "compiler/ir/key_conditions.h"
#include "compiler/plan/expr_facts.h"

namespace tally {

namespace {

// A cell the device holds as a number: not a dictionary code, an interval's parts or a
// string id.
bool number_cell(const Type& t) {
  return !t.is_string() && !t.is_interval() && t.id != TypeId::Null;
}

// Over having_over_string_key_columns' form: a string key is a column there, read only
// inside a term the Finalizer looks up by the column's code.
bool fits(const Expr& e, const BoundSelect& query) {
  if (dictionary_lookup_column(e, query) >= 0) return true;
  if (e.type.is_string() || e.type.is_interval()) return false;
  switch (e.kind) {
    case ExprKind::GroupKeyRef: {
      const Type& t = query.group_keys.at(static_cast<size_t>(e.index))->type;
      return number_cell(t) && !t.is_float();  // a float key's cell is its hash key's bits
    }
    case ExprKind::AggregateRef:
      return number_cell(query.aggregates.at(static_cast<size_t>(e.index)).type);
    case ExprKind::Constant:
    case ExprKind::Parameter:
      return true;
    case ExprKind::Arith:
    case ExprKind::Negate:
    case ExprKind::Abs:
    case ExprKind::Compare:
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Not:
    case ExprKind::IsNull:
    case ExprKind::InList:
    case ExprKind::Case:
    case ExprKind::Coalesce:
      break;
    case ExprKind::Cast:  // between numbers: strings and times have other forms on the device
      if (!e.type.is_numeric() || !e.children[0]->type.is_numeric()) return false;
      break;
    default:
      return false;
  }
  for (const auto& c : e.children) {
    if (!fits(*c, query)) return false;
  }
  return true;
}

}  // namespace

bool having_fits_device(const BoundSelect& query) {
  return query.having && query.grouping_sets.empty() &&
         fits(*having_over_string_key_columns(query), query);
}

bool string_column_key(const Expr& key) {
  return key.kind == ExprKind::ColumnRef && key.type.is_string();
}

ExprPtr having_over_string_key_columns(const BoundSelect& query) {
  return with_keys_over_rows(query.having, query, string_column_key);
}

}  // namespace tally
