// compile_vector: which operator each expression node becomes, and how its values are held.
#include "runtime/cpu/vector_expr.h"

#include <cmath>

#include "compiler/common/decimal.h"
#include "compiler/plan/value_bounds.h"
#include "runtime/cpu/vector_ops.h"

namespace tally {

namespace {

// Unscaled values below 2^62 in magnitude fit int64 with room for value_bounds' long double
// rounding.
constexpr long double kFits64 = 4611686018427387904.0L;

bool fits_64(const ValueBounds& b) { return b.known && b.lo > -kFits64 && b.hi < kFits64; }

bool is_constant_item(const Expr& e) {
  return e.kind == ExprKind::Constant || e.kind == ExprKind::Parameter;
}

}  // namespace

std::optional<std::string> vector_unsupported(const Expr& e) {
  // An INTERVAL's three parts have no batch representation: the row path holds them.
  if (e.type.is_interval()) return "an INTERVAL value";
  switch (e.kind) {
    case ExprKind::GroupKeyRef:
    case ExprKind::AggregateRef:
      return "a group key or aggregate reference below the aggregation";
    case ExprKind::InList:
      // The row path stops at the first matching item; items that cannot raise need no order.
      for (size_t i = 1; i < e.children.size(); ++i) {
        if (!is_constant_item(*e.children[i])) return "IN with a list of non-constant items";
      }
      break;
    default:
      break;
  }
  for (const auto& c : e.children) {
    if (auto why = vector_unsupported(*c)) return why;
  }
  return std::nullopt;
}

Phys vector_phys(const Expr& e, const VecEnv& env) {
  if (e.kind == ExprKind::ColumnRef) return phys_of(e.type, !e.type.is_wide());
  if (!e.type.is_decimal()) return phys_of(e.type, true);
  return phys_of(e.type, fits_64(value_bounds(e, *env.stats, env.parameters)));
}

bool may_be_null(const Expr& e, const std::vector<ColumnStats>& stats,
                 const std::vector<Value>& parameters) {
  switch (e.kind) {
    case ExprKind::ColumnRef:
      return stats[static_cast<size_t>(e.index)].has_nulls;
    case ExprKind::Constant:
      return e.value.null;
    case ExprKind::Parameter:
      return static_cast<size_t>(e.index) >= parameters.size() ||
             parameters[static_cast<size_t>(e.index)].null;
    case ExprKind::IsNull:
      return false;
    case ExprKind::Arith:
    case ExprKind::Negate:
    case ExprKind::Compare:
    case ExprKind::Abs:
    case ExprKind::Extract:
      break;  // NULL exactly where an argument is
    default:
      return true;
  }
  for (const auto& c : e.children) {
    if (may_be_null(*c, stats, parameters)) return true;
  }
  return false;
}

namespace {

VecOpPtr constant_of(const Expr& e, const VecEnv& env) {
  Value v = e.value;
  if (e.type.is_string() && !v.null) v = Value::from_int(env.strings->intern(e.str));
  return vec::constant_op(v, e.type, vector_phys(e, env));
}

}  // namespace

int64_t vec::proven_factor(const Expr& e, int digits, const VecEnv& env) {
  if (digits == 0) return 1;
  if (digits < 0 || digits > 18) return 0;
  ValueBounds b = value_bounds(e, *env.stats, env.parameters);
  const long double f = std::pow(10.0L, digits);
  b.lo *= f;
  b.hi *= f;
  return fits_64(b) ? static_cast<int64_t>(pow10_128(digits)) : 0;
}

namespace {

bool reads_columns(const Expr& e) {
  if (e.kind == ExprKind::ColumnRef) return true;
  for (const auto& c : e.children) {
    if (reads_columns(*c)) return true;
  }
  return false;
}

// A subtree of constants and parameters has one value for the whole query: computed once.
// One that raises stays per row, so that it raises only where a row reaches it.
VecOpPtr folded(const Expr& e, const VecEnv& env) {
  if (e.kind == ExprKind::Constant || reads_columns(e)) return nullptr;
  EvalContext ctx;
  ctx.parameters = env.parameters->data();
  ctx.parameter_count = env.parameters->size();
  ctx.strings = env.strings;
  try {
    return vec::constant_op(evaluate(e, ctx), e.type, vector_phys(e, env));
  } catch (const Error&) {
    return nullptr;
  }
}

}  // namespace

VecOpPtr compile_vector(const Expr& e, const VecEnv& env) {
  if (VecOpPtr constant = folded(e, env)) return constant;
  switch (e.kind) {
    case ExprKind::ColumnRef:
      return vec::column_op(e, env);
    case ExprKind::Constant:
      return constant_of(e, env);
    case ExprKind::Parameter:
      if (static_cast<size_t>(e.index) < env.parameters->size()) {
        return vec::constant_op((*env.parameters)[static_cast<size_t>(e.index)], e.type,
                                vector_phys(e, env));
      }
      break;  // the row evaluator raises "has no value" on the rows that reach it
    default:
      break;
  }
  std::vector<VecOpPtr> children;
  for (const auto& c : e.children) children.push_back(compile_vector(*c, env));
  VecOpPtr op;
  switch (e.kind) {
    case ExprKind::Arith:
      op = vec::arith_op(e, env, children);
      break;
    case ExprKind::Cast:
      op = vec::cast_op(e, env, children);
      break;
    case ExprKind::Compare:
      op = vec::compare_op(e, env, children);
      break;
    case ExprKind::And:
    case ExprKind::Or:
    case ExprKind::Not:
    case ExprKind::IsNull:
    case ExprKind::Case:
    case ExprKind::Coalesce:
      op = vec::logic_op(e, env, children);
      break;
    case ExprKind::Function:
    case ExprKind::Extract:
      op = vec::function_op(e, env, children);
      break;
    default:
      break;
  }
  return op ? std::move(op) : vec::row_op(e, env, std::move(children));
}

}  // namespace tally
