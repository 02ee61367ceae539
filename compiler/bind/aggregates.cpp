// Aggregate calls: their arguments and constants (QUANTILE_CONT(x, 0.25), STRING_AGG(x,
// '; ')), ORDER BY inside the call, and WITHIN GROUP (ORDER BY x) of the ordered-set
// aggregates (PERCENTILE_CONT, PERCENTILE_DISC, MODE), which gives their argument.
#include <fmt/format.h>

#include <cmath>

#include "compiler/bind/expression_binder.h"
#include "compiler/common/decimal.h"
#include "compiler/eval/evaluator.h"

namespace tally {

namespace {

// Sets inside_aggregate while an aggregate's argument is bound.
class AggregateScope {
 public:
  explicit AggregateScope(bool& flag) : flag_(flag) { flag_ = true; }
  ~AggregateScope() { flag_ = false; }

 private:
  bool& flag_;
};

// A numeric constant as a double.
double constant_double(const Expr& c) {
  if (c.type.is_exact128()) {
    return static_cast<double>(static_cast<long double>(c.value.d) / std::pow(10.0L, c.type.scale));
  }
  return c.type.is_float() ? c.value.f : static_cast<double>(c.value.i);
}

// PostgreSQL: an ordered-set aggregate needs WITHIN GROUP; no other aggregate takes it.
void check_within_group(const ast::Expr& e, const AggregateFunction& f) {
  if (e.within_group && f.within_group == WithinGroupRule::Rejected) {
    throw Error(
        ErrorKind::Binder,
        fmt::format("{} is not an ordered-set aggregate, so it cannot have WITHIN GROUP", f.name),
        *e.within_group);
  }
  if (!e.within_group && f.within_group == WithinGroupRule::Required) {
    throw Error(ErrorKind::Binder,
                fmt::format("WITHIN GROUP (ORDER BY ...) is required for the ordered-set "
                            "aggregate {}",
                            f.name),
                e.location);
  }
  if (e.within_group && e.order_by.size() != 1) {
    throw Error(ErrorKind::Binder,
                fmt::format("WITHIN GROUP of {} takes one ORDER BY expression", f.name),
                *e.within_group);
  }
}

}  // namespace

ExprPtr ExpressionBinder::bind_aggregate(const ast::Expr& e, const AggregateFunction& named) {
  if (!rules_.allows_aggregates) {
    throw Error(ErrorKind::Binder,
                fmt::format("aggregate functions are not allowed in {}", rules_.clause),
                e.location);
  }
  if (inside_aggregate_) {
    throw Error(ErrorKind::Binder, "aggregate function calls cannot be nested", e.location);
  }
  if (e.distinct && named.distinct == DistinctRule::Rejected) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("{}(DISTINCT ...) is not supported", named.name), e.location);
  }
  check_within_group(e, named);
  // ORDER BY inside a call that keeps order (FIRST, STRING_AGG) picks its ordered entry;
  // the other aggregates give the same answer in any order, and ignore it as DuckDB does.
  const bool ordered = !e.order_by.empty() && !e.within_group && named.ordered;
  const AggregateFunction& function = ordered ? *named.ordered : named;
  AggregateCall call{};
  call.kind = function.kind;
  call.distinct = e.distinct;
  call.type = Type::bigint();
  call.text = e.source_text;
  if (e.star) {
    if (function.kind == AggKind::Count && e.distinct) {
      throw Error(ErrorKind::Unsupported, "COUNT(DISTINCT *) is not supported", e.location);
    }
    if (function.kind != AggKind::Count) {
      throw Error(ErrorKind::Binder,
                  fmt::format("{}(*) is not valid; only COUNT(*) counts rows", function.name),
                  e.location);
    }
    call.kind = AggKind::CountStar;
  } else {
    AggregateScope scope(inside_aggregate_);
    bind_aggregate_arguments(e, function, call);
    if (ordered) bind_aggregate_order(e, call);
  }
  if (e.filter) apply_filter(call, *e.filter);
  // The same with or without DISTINCT (MIN, MAX): engines need not know.
  if (function.distinct == DistinctRule::Ignored) call.distinct = false;
  // A DISTINCT set keeps an interval as its span ('1 mon' as '30 days'): COUNT reads only
  // how many there are, a sum would print other parts than PostgreSQL's.
  const bool interval_set = call.distinct && call.arg && call.arg->type.is_interval();
  if (interval_set && call.kind != AggKind::Count) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("{}(DISTINCT ...) of an INTERVAL is not supported", function.name),
                e.location);
  }
  Type type = call.type;
  int index = ctx_.add_aggregate(std::move(call));
  auto ref = new_node(ExprKind::AggregateRef, type, e);
  ref->index = index;
  return ref;
}

void ExpressionBinder::bind_aggregate_arguments(const ast::Expr& e, const AggregateFunction& f,
                                                AggregateCall& call) {
  const size_t constants = f.extra == AggExtra::None ? 0 : 1;
  if (e.within_group) {
    // PERCENTILE_CONT(f) WITHIN GROUP (ORDER BY x): the call's arguments are the constants.
    expect_arguments(e, constants, constants);
    call.arg = aggregate_argument(*e.order_by[0].expr, f.typing);
    call.descending = e.order_by[0].descending;
  } else {
    const size_t values = f.typing_pair ? 2 : 1;
    const size_t optional = f.extra == AggExtra::Separator ? 1 : 0;
    expect_arguments(e, values + constants - optional, values + constants);
    call.arg = aggregate_argument(*e.children[0], f.typing);
    if (f.typing_pair) call.key = aggregate_argument(*e.children[1], f.typing);
  }
  const size_t before_constants = e.within_group ? 0 : (f.typing_pair ? 2 : 1);
  const ast::Expr* constant =
      e.children.size() > before_constants ? e.children.back().get() : nullptr;
  if (constant && f.extra == AggExtra::Fraction) call.fraction = aggregate_fraction(f, *constant);
  if (constant && f.extra == AggExtra::Separator)
    call.separator = aggregate_separator(f, *constant);
  auto typing =
      f.typing_pair ? f.typing_pair(call.arg->type, call.key->type) : f.typing(call.arg->type);
  if (!typing.result) {
    const std::string types =
        call.arg->type.to_string() + (call.key ? ", " + call.key->type.to_string() : "");
    throw Error(ErrorKind::Type,
                fmt::format("cannot apply {} to {} in \"{}\": {}", f.name, types, e.source_text,
                            typing.error),
                e.location);
  }
  if (typing.cast_arg) call.arg = convert(call.arg, *typing.cast_arg, ctx_);
  if (typing.cast_key) call.key = convert(call.key, *typing.cast_key, ctx_);
  call.type = *typing.result;
}

void ExpressionBinder::bind_aggregate_order(const ast::Expr& e, AggregateCall& call) {
  for (const ast::OrderItem& item : e.order_by) {
    AggregateOrder order;
    order.expr = fold_constants(settle_untyped(bind(*item.expr), Type::varchar(), ctx_));
    order.descending = item.descending;
    // PostgreSQL's default: NULLs sort as if larger than every value.
    order.nulls_first = item.nulls_first.value_or(item.descending);
    call.order.push_back(std::move(order));
  }
}

double ExpressionBinder::aggregate_fraction(const AggregateFunction& f, const ast::Expr& arg) {
  ExprPtr x = fold_constants(adapt_untyped(bind(arg), Type::double_(), ctx_));
  if (x->kind != ExprKind::Constant || x->value.null || !x->type.is_numeric()) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("the fraction of {} must be a numeric constant", f.name), arg.location);
  }
  const double fraction = constant_double(*x);
  if (!(fraction >= 0 && fraction <= 1)) {
    throw Error(ErrorKind::Binder,
                fmt::format("the fraction of {} must be between 0 and 1, not {}", f.name,
                            arg.source_text.str()),
                arg.location);
  }
  return fraction;
}

std::string ExpressionBinder::aggregate_separator(const AggregateFunction& f,
                                                  const ast::Expr& arg) {
  ExprPtr x = fold_constants(adapt_untyped(bind(arg), Type::varchar(), ctx_));
  if (x->kind != ExprKind::Constant || x->value.null || !x->type.is_string()) {
    throw Error(ErrorKind::Unsupported,
                fmt::format("the separator of {} must be a constant string", f.name), arg.location);
  }
  return x->str;
}

// An aggregate's argument. A bare NULL (untyped) takes the first of VARCHAR, INTEGER and
// BOOLEAN the function accepts, so SUM(NULL) and AVG(NULL) are NULL, not type errors.
ExprPtr ExpressionBinder::aggregate_argument(const ast::Expr& arg,
                                             AggregateTyping (*typing)(const Type&)) {
  ExprPtr bound = bind(arg);
  Type fallback = Type::varchar();
  if (typing && is_untyped(*bound)) {
    for (const Type& t : {Type::varchar(), Type::integer(), Type::boolean()}) {
      if (!typing(t).result) continue;
      fallback = t;
      break;
    }
  }
  return fold_constants(settle_untyped(bound, fallback, ctx_));
}

}  // namespace tally
