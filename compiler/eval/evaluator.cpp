// Row-at-a-time interpretation of the expression IR.
#include "compiler/eval/evaluator.h"

#include <fmt/format.h>

#include "compiler/common/date.h"
#include "compiler/common/time_of_day.h"
#include "compiler/common/timestamp.h"
#include "compiler/eval/internal.h"

namespace tally {

using detail::execution_error;

namespace {

Value eval_and(const Expr& e, const EvalContext& ctx) {
  bool saw_null = false;
  for (const auto& c : e.children) {
    Value v = evaluate(*c, ctx);
    if (v.null) {
      saw_null = true;
    } else if (v.i == 0) {
      return Value::from_bool(false);
    }
  }
  return saw_null ? Value() : Value::from_bool(true);
}

Value eval_or(const Expr& e, const EvalContext& ctx) {
  bool saw_null = false;
  for (const auto& c : e.children) {
    Value v = evaluate(*c, ctx);
    if (v.null) {
      saw_null = true;
    } else if (v.i != 0) {
      return Value::from_bool(true);
    }
  }
  return saw_null ? Value() : Value::from_bool(false);
}

Value eval_in_list(const Expr& e, const EvalContext& ctx) {
  Value v = evaluate(*e.children[0], ctx);
  if (v.null) return v;
  const Type& t = e.children[0]->type;
  bool saw_null = false;
  for (size_t i = 1; i < e.children.size(); ++i) {
    Value item = evaluate(*e.children[i], ctx);
    if (item.null) {
      saw_null = true;
      continue;
    }
    int c = t.is_decimal() ? compare_decimal(v.d, t.scale, item.d, e.children[i]->type.scale)
                           : compare_values(v, item, t, ctx.strings);
    if (c == 0) return Value::from_bool(!e.negated);
  }
  if (saw_null) return Value();
  return Value::from_bool(e.negated);
}

Value eval_case(const Expr& e, const EvalContext& ctx) {
  size_t pairs = (e.children.size() - 1) / 2;
  for (size_t i = 0; i < pairs; ++i) {
    if (is_true(evaluate(*e.children[2 * i], ctx))) return evaluate(*e.children[2 * i + 1], ctx);
  }
  return evaluate(*e.children.back(), ctx);
}

Value eval_date_add(const Expr& e, const Value& v) {
  if (v.null) return v;
  // A time of day wraps around midnight; the interval's months and days leave it (PostgreSQL).
  if (e.type.id == TypeId::Time) return Value::from_int(add_to_time(v.i, e.micros));
  if (e.type.is_timestamp()) {
    auto micros = add_to_timestamp(v.i, e.months, e.days, e.micros);
    if (!micros) execution_error("timestamp out of range");
    return Value::from_int(*micros);
  }
  int64_t d = v.i;
  if (e.months != 0) d = add_months(static_cast<int32_t>(d), e.months);  // range checked below
  return Value::from_int(detail::check_integer_range(static_cast<int128>(d) + e.days, e.type));
}

Value eval_like(const Expr& e, const EvalContext& ctx) {
  Value v = evaluate(*e.children[0], ctx);
  if (v.null) return v;
  const std::string& text = ctx.strings->get(v.i);
  const bool match = e.op ? detail::ilike_match(text, e.str) : like_match(text, e.str);
  return Value::from_bool(match != e.negated);
}

Value eval_function(const Expr& e, const EvalContext& ctx) {
  std::vector<Value> args;
  args.reserve(e.children.size());
  for (const auto& c : e.children) args.push_back(evaluate(*c, ctx));
  const bool strings = (e.op >= kUpper && e.op <= kRight) || e.op == kStrftime;
  if (strings) {
    return detail::eval_string_function(e, args, ctx.strings);
  }
  return detail::eval_numeric_function(e, args, ctx.strings);
}

Value eval_parameter(const Expr& e, const EvalContext& ctx) {
  if (static_cast<size_t>(e.index) >= ctx.parameter_count) {
    execution_error(fmt::format("parameter ${} has no value", e.index + 1));
  }
  return ctx.parameters[e.index];
}

}  // namespace

Value evaluate(const Expr& e, const EvalContext& ctx) {
  switch (e.kind) {
    case ExprKind::ColumnRef:
      return ctx.columns[e.index];
    case ExprKind::Constant:
      if (e.type.is_string() && !e.value.null) return Value::from_int(ctx.strings->intern(e.str));
      return e.value;
    case ExprKind::Parameter:
      return eval_parameter(e, ctx);
    case ExprKind::GroupKeyRef:
      return ctx.keys[e.index];
    case ExprKind::AggregateRef:
      return ctx.aggregates[e.index];
    case ExprKind::Arith:
      return detail::eval_arith(e, evaluate(*e.children[0], ctx), evaluate(*e.children[1], ctx));
    case ExprKind::Negate: {
      Value v = evaluate(*e.children[0], ctx);
      if (v.null) return v;
      if (e.type.is_interval()) return detail::eval_interval_negate(v);
      if (e.type.is_decimal()) return Value::from_decimal(-v.d);
      if (e.type.is_hugeint()) return Value::from_decimal(detail::negate_hugeint(v.d));
      if (e.type.is_float()) return Value::from_double(-v.f);
      return Value::from_int(detail::check_integer_range(-static_cast<int128>(v.i), e.type));
    }
    case ExprKind::Compare:
      return detail::eval_compare(e, evaluate(*e.children[0], ctx), evaluate(*e.children[1], ctx),
                                  ctx.strings);
    case ExprKind::And:
      return eval_and(e, ctx);
    case ExprKind::Or:
      return eval_or(e, ctx);
    case ExprKind::Not: {
      Value v = evaluate(*e.children[0], ctx);
      return v.null ? v : Value::from_bool(v.i == 0);
    }
    case ExprKind::IsNull:
      return Value::from_bool(evaluate(*e.children[0], ctx).null != e.negated);
    case ExprKind::InList:
      return eval_in_list(e, ctx);
    case ExprKind::Like:
      return eval_like(e, ctx);
    case ExprKind::Case:
      return eval_case(e, ctx);
    case ExprKind::Cast:
      return cast_value(evaluate(*e.children[0], ctx), e.children[0]->type, e.type, ctx.strings);
    case ExprKind::Coalesce:
      for (const auto& c : e.children) {
        Value v = evaluate(*c, ctx);
        if (!v.null) return v;
      }
      return Value();
    case ExprKind::Abs:
      return detail::eval_abs(e, evaluate(*e.children[0], ctx));
    case ExprKind::Round:
      return detail::eval_round(e, evaluate(*e.children[0], ctx));
    case ExprKind::Extract:
      return detail::eval_extract(e, evaluate(*e.children[0], ctx));
    case ExprKind::DateAdd:
      return eval_date_add(e, evaluate(*e.children[0], ctx));
    case ExprKind::Function:
      return eval_function(e, ctx);
    case ExprKind::Grouping:
      break;  // split_grouping_sets makes it a constant first
    case ExprKind::GroupingSetId:
      break;  // only the GPU runs one_pass_grouping_query
  }
  throw Error(ErrorKind::Internal, "unknown expression kind");
}

}  // namespace tally
