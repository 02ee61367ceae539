#include "compiler/ir/expr.h"

#include <fmt/format.h>

#include "compiler/common/date.h"
#include "compiler/common/decimal.h"
#include "compiler/common/interval_value.h"
#include "compiler/common/time_of_day.h"
#include "compiler/common/timestamp.h"

namespace tally {

namespace {

std::shared_ptr<Expr> new_node(ExprKind kind, Type type) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = type;
  return e;
}

std::string quote_sql_string(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

std::string constant_to_string(const Expr& e) {
  if (e.value.null) return "NULL";
  switch (e.type.id) {
    case TypeId::Null:
      return "NULL";
    case TypeId::Boolean:
      return e.value.i ? "TRUE" : "FALSE";
    case TypeId::SmallInt:
    case TypeId::Integer:
    case TypeId::BigInt:
      return std::to_string(e.value.i);
    case TypeId::Real:
    case TypeId::Double:
      return fmt::format("{}", e.value.f);
    case TypeId::Decimal:
      return format_decimal(e.value.d, e.type.scale);
    case TypeId::HugeInt:
      return "CAST(" + int128_to_string(e.value.d) + " AS HUGEINT)";
    case TypeId::Date:
      return "DATE '" + format_date(static_cast<int32_t>(e.value.i)) + "'";
    case TypeId::Timestamp:
      return "TIMESTAMP '" + format_timestamp(e.value.i) + "'";
    case TypeId::TimestampTz:
      return "TIMESTAMPTZ '" + format_timestamptz(e.value.i) + "'";
    case TypeId::Time:
      return "TIME '" + format_time(e.value.i) + "'";
    case TypeId::Interval:
      return "INTERVAL '" + format_interval(as_interval(e.value)) + "'";
    case TypeId::Varchar:
      return quote_sql_string(e.str);
  }
  return "?";
}

std::string join_children(const Expr& e, size_t from, const char* separator) {
  std::string out;
  for (size_t i = from; i < e.children.size(); ++i) {
    if (i > from) out += separator;
    out += expr_to_string(*e.children[i]);
  }
  return out;
}

std::string case_to_string(const Expr& e) {
  std::string out = "CASE";
  size_t pairs = (e.children.size() - 1) / 2;
  for (size_t i = 0; i < pairs; ++i) {
    out += " WHEN " + expr_to_string(*e.children[2 * i]) + " THEN " +
           expr_to_string(*e.children[2 * i + 1]);
  }
  return out + " ELSE " + expr_to_string(*e.children.back()) + " END";
}

bool values_equal(const Expr& a, const Expr& b) {
  if (a.value.null != b.value.null) return false;
  if (a.value.null) return true;
  switch (a.type.id) {
    case TypeId::Decimal:
    case TypeId::HugeInt:
    case TypeId::Interval:  // all three parts: '1 day' and '24 hours' print differently
      return a.value.d == b.value.d;
    case TypeId::Real:
    case TypeId::Double:
      return a.value.f == b.value.f;
    case TypeId::Varchar:
      return true;  // the text is in str
    default:
      return a.value.i == b.value.i;
  }
}

}  // namespace

const char* arith_op_symbol(int op) {
  static const char* const kSymbols[] = {"+", "-", "*", "/", "%"};
  return op >= kAdd && op <= kMod ? kSymbols[op] : "?";
}

const char* compare_op_symbol(int op) {
  static const char* const kSymbols[] = {"=", "<>", "<", "<=", ">", ">="};
  return op >= kEq && op <= kGe ? kSymbols[op] : "?";
}

ExprPtr make_column_ref(int index, Type type, SqlText text) {
  auto e = new_node(ExprKind::ColumnRef, type);
  e->index = index;
  e->text = std::move(text);
  return e;
}

ExprPtr make_constant(Value value, Type type, SqlText text) {
  auto e = new_node(ExprKind::Constant, type);
  e->value = value;
  e->text = std::move(text);
  return e;
}

ExprPtr make_string_constant(std::string s, SqlText text) {
  auto e = new_node(ExprKind::Constant, Type::varchar());
  e->value = Value::from_int(0);  // not NULL; the text is in str
  e->str = std::move(s);
  e->text = std::move(text);
  return e;
}

ExprPtr make_null_constant(Type type) {
  auto e = new_node(ExprKind::Constant, type);
  e->text = "NULL";
  return e;
}

ExprPtr make_cast(ExprPtr child, Type to) {
  auto e = new_node(ExprKind::Cast, to);
  e->text = child->text;
  e->location = child->location;
  e->children.push_back(std::move(child));
  return e;
}

ExprPtr make_node(ExprKind kind, Type type, std::vector<ExprPtr> children, int op) {
  auto e = new_node(kind, type);
  e->children = std::move(children);
  e->op = op;
  return e;
}

std::string expr_to_string(const Expr& e) {
  auto child = [&](size_t i) { return expr_to_string(*e.children[i]); };
  switch (e.kind) {
    case ExprKind::ColumnRef:
      return e.text.empty() ? fmt::format("#{}", e.index) : fmt::format("#{}:{}", e.index, e.text);
    case ExprKind::Constant:
      return constant_to_string(e);
    case ExprKind::Parameter:
      return fmt::format("${}", e.index + 1);
    case ExprKind::GroupKeyRef:
      return fmt::format("key{}", e.index);
    case ExprKind::AggregateRef:
      return fmt::format("agg{}", e.index);
    case ExprKind::Arith:
      return fmt::format("({} {} {})", child(0), arith_op_symbol(e.op), child(1));
    case ExprKind::Negate:
      return fmt::format("(-{})", child(0));
    case ExprKind::Compare:
      return fmt::format("({} {} {})", child(0), compare_op_symbol(e.op), child(1));
    case ExprKind::And:
      return "(" + join_children(e, 0, " AND ") + ")";
    case ExprKind::Or:
      return "(" + join_children(e, 0, " OR ") + ")";
    case ExprKind::Not:
      return fmt::format("(NOT {})", child(0));
    case ExprKind::IsNull:
      return fmt::format("({} IS {}NULL)", child(0), e.negated ? "NOT " : "");
    case ExprKind::InList:
      return fmt::format("({} {}IN ({}))", child(0), e.negated ? "NOT " : "",
                         join_children(e, 1, ", "));
    case ExprKind::Like:
      return fmt::format("({} {}{} {})", child(0), e.negated ? "NOT " : "", e.op ? "ILIKE" : "LIKE",
                         quote_sql_string(e.str));
    case ExprKind::Case:
      return case_to_string(e);
    case ExprKind::Cast:
      return fmt::format("CAST({} AS {})", child(0), e.type.to_string());
    case ExprKind::Coalesce:
      return "COALESCE(" + join_children(e, 0, ", ") + ")";
    case ExprKind::Abs:
      return fmt::format("ABS({})", child(0));
    case ExprKind::Round:
      return fmt::format("ROUND({}, {})", child(0), e.digits);
    case ExprKind::Extract:
      return fmt::format("EXTRACT({} FROM {})", extract_field_name(e.op), child(0));
    case ExprKind::DateAdd:
      if (e.type.id != TypeId::Date) {
        return fmt::format("({} + INTERVAL '{} months {} days {} microseconds')", child(0),
                           e.months, e.days, e.micros);
      }
      return fmt::format("({} + INTERVAL '{} months {} days')", child(0), e.months, e.days);
    case ExprKind::Function:
      return function_to_string(e);
    case ExprKind::Grouping: {
      std::string keys;
      for (size_t i = 0; i < e.children.size(); ++i) keys += (i ? ", " : "") + child(i);
      return fmt::format("GROUPING({})", keys);
    }
    case ExprKind::GroupingSetId:
      return "GROUPING_SET_ID()";
  }
  return "?";
}

bool expr_equal(const Expr& a, const Expr& b) {
  if (a.kind != b.kind || !(a.type == b.type) || a.index != b.index || a.op != b.op ||
      a.str != b.str || a.months != b.months || a.days != b.days || a.micros != b.micros ||
      a.digits != b.digits || a.negated != b.negated || a.children.size() != b.children.size()) {
    return false;
  }
  if (a.kind == ExprKind::Constant && !values_equal(a, b)) return false;
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!expr_equal(*a.children[i], *b.children[i])) return false;
  }
  return true;
}

bool contains_kind(const Expr& e, ExprKind kind) {
  if (e.kind == kind) return true;
  for (const auto& c : e.children) {
    if (contains_kind(*c, kind)) return true;
  }
  return false;
}

void mark_scan_columns(const Expr& e, std::vector<bool>& reads) {
  if (e.kind == ExprKind::ColumnRef) reads.at(static_cast<size_t>(e.index)) = true;
  for (const auto& c : e.children) mark_scan_columns(*c, reads);
}

bool is_row_invariant(const Expr& e) {
  return !contains_kind(e, ExprKind::ColumnRef) && !contains_kind(e, ExprKind::GroupKeyRef) &&
         !contains_kind(e, ExprKind::AggregateRef) && !contains_kind(e, ExprKind::Grouping);
}

bool is_constant_expr(const Expr& e) {
  return is_row_invariant(e) && !contains_kind(e, ExprKind::Parameter);
}

}  // namespace tally
