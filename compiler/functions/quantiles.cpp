// MEDIAN(x), QUANTILE_CONT(x, f), QUANTILE_DISC(x, f) (DuckDB; QUANTILE is QUANTILE_DISC)
// and PERCENTILE_CONT(f) / PERCENTILE_DISC(f) WITHIN GROUP (ORDER BY x) (PostgreSQL), over
// the group's sorted values (value_lists.h).
// CONT interpolates between the values at (n - 1) * f: a DOUBLE for integers and floats,
// the argument's DECIMAL rounded half away from zero to its scale (DuckDB keeps the type),
// and a DATE rounded down to a whole day (DuckDB gives a TIMESTAMP, which tally lacks).
// DISC is the first value whose position reaches f * n, PostgreSQL's rule, in the
// argument's own type. NULLs are skipped; no values is NULL.
#include <algorithm>
#include <cmath>

#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/value_lists.h"

namespace tally::aggregates {

namespace {

// lo + (hi - lo) * d in the argument's type.
Value interpolate(const Value& lo, const Value& hi, double d, const AggContext& ctx) {
  if (ctx.arg.is_decimal()) {
    // lo plus the step's whole units, then its fraction rounded half away from zero.
    const long double step = static_cast<long double>(hi.d - lo.d) * d;
    const long double whole = std::floor(step);
    const int128 base = lo.d + static_cast<int128>(whole);
    const long double rest = step - whole;
    const bool up = rest > 0.5L || (rest == 0.5L && base >= 0);
    return Value::from_decimal(base + (up ? 1 : 0));
  }
  if (ctx.arg.is_datetime()) {
    const long double step = static_cast<long double>(hi.i - lo.i) * d;
    return Value::from_int(lo.i + static_cast<int64_t>(std::floor(step)));
  }
  auto as_double = [&](const Value& v) {
    return ctx.arg.is_float() ? v.f : static_cast<double>(v.i);
  };
  const double a = as_double(lo), b = as_double(hi);
  return Value::from_double(d == 0 ? a : a + (b - a) * d);
}

Value final_cont(const HostAggState& s, const AggContext& ctx) {
  if (s.values.empty()) return Value::make_null();
  const std::vector<Value> sorted = sorted_values(s, ctx);
  const double position = ctx.fraction * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(position));
  const auto hi = static_cast<size_t>(std::ceil(position));
  return interpolate(sorted[lo], sorted[hi], position - static_cast<double>(lo), ctx);
}

Value final_disc(const HostAggState& s, const AggContext& ctx) {
  if (s.values.empty()) return Value::make_null();
  const std::vector<Value> sorted = sorted_values(s, ctx);
  // PostgreSQL's percentile_disc: row ceil(f * n), counted from 1, at least the first.
  const auto row =
      static_cast<size_t>(std::ceil(ctx.fraction * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size(), std::max<size_t>(row, 1)) - 1];
}

AggregateTyping typing_cont(const Type& arg) {
  if (arg.is_decimal() || arg.is_datetime()) return {arg, nullptr};
  if (arg.is_hugeint()) return {Type::double_(), nullptr, Type::double_()};
  if (arg.is_numeric()) return {Type::double_(), nullptr};
  return {std::nullopt, "the argument must be a number, a DATE or a TIMESTAMP"};
}

AggregateTyping typing_disc(const Type& arg) {
  if (arg.id == TypeId::Null) return {std::nullopt, "the argument type is unknown"};
  return {arg, nullptr};
}

StateKind cont_state(const Type&) { return StateKind::QuantileCont; }
StateKind disc_state(const Type&) { return StateKind::QuantileDisc; }

}  // namespace

const StateInfo kQuantileContState = {StateKind::QuantileCont,
                                      "QuantileCont",
                                      {FieldKind::Count},
                                      SumGrowth::None,
                                      false,
                                      update_list,
                                      combine_lists,
                                      final_cont,
                                      nullptr,
                                      nullptr,
                                      true};
const StateInfo kQuantileDiscState = {StateKind::QuantileDisc,
                                      "QuantileDisc",
                                      {FieldKind::Count},
                                      SumGrowth::None,
                                      true,
                                      update_list,
                                      combine_lists,
                                      final_disc,
                                      nullptr,
                                      nullptr,
                                      true};

// DISTINCT would change which value sits at a position: not supported, as in DuckDB.
const AggregateFunction kMedian = {AggKind::Median,        "MEDIAN",    {"MEDIAN"},
                                   DistinctRule::Rejected, typing_cont, cont_state};
const AggregateFunction kQuantileCont = {
    AggKind::QuantileCont, "QUANTILE_CONT", {"QUANTILE_CONT"}, DistinctRule::Rejected,
    typing_cont,           cont_state,      nullptr,           AggExtra::Fraction};
const AggregateFunction kQuantileDisc = {AggKind::QuantileDisc,
                                         "QUANTILE_DISC",
                                         {"QUANTILE_DISC", "QUANTILE"},
                                         DistinctRule::Rejected,
                                         typing_disc,
                                         disc_state,
                                         nullptr,
                                         AggExtra::Fraction};
const AggregateFunction kPercentileCont = {AggKind::PercentileCont,
                                           "PERCENTILE_CONT",
                                           {"PERCENTILE_CONT"},
                                           DistinctRule::Rejected,
                                           typing_cont,
                                           cont_state,
                                           nullptr,
                                           AggExtra::Fraction,
                                           WithinGroupRule::Required};
const AggregateFunction kPercentileDisc = {AggKind::PercentileDisc,
                                           "PERCENTILE_DISC",
                                           {"PERCENTILE_DISC"},
                                           DistinctRule::Rejected,
                                           typing_disc,
                                           disc_state,
                                           nullptr,
                                           AggExtra::Fraction,
                                           WithinGroupRule::Required};

}  // namespace tally::aggregates
