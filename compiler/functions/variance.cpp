// VAR_SAMP (VARIANCE) and STDDEV_SAMP (STDDEV), DOUBLE. Integer and DECIMAL arguments keep
// an exact state (count, sum, sum of squares in 128 bits): the final division is the only
// rounding. REAL and DOUBLE keep Welford's running mean and M2 on the host; on the device a
// second pass sums deviations from the first pass's mean (the corrected two-pass formula).
// The host keeps Welford's state beside the exact one too: values near 2^63 (BIGINT, wide
// DECIMAL) pass 128 bits of squares within a few rows, where PostgreSQL and DuckDB still
// answer, and then the final reads it. The GPU planner declines such inputs (SumGrowth).
#include <fmt/format.h>

#include <cmath>

#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/host_state_ops.h"
#include "templates/tally_finals.cuh"

namespace tally::aggregates {

namespace {

// Welford: fsum holds the running mean and fsumsq the sum of squared deviations (M2), so a
// large mean beside a small spread loses nothing to cancellation.
void welford(HostAggState& s, double x) {
  ++s.count;
  const double delta = x - s.fsum;
  s.fsum += delta / static_cast<double>(s.count);
  s.fsumsq += delta * (x - s.fsum);
}

void update_double(HostAggState& s, const Value& v, const AggContext&) { welford(s, v.f); }

// Exact sums while they fit, Welford's state (of unscaled values) always.
void update_exact(HostAggState& s, const Value& v, const AggContext& ctx) {
  const int128 x = exact_value(v, ctx.arg);
  welford(s, static_cast<double>(x));
  if (s.inexact) return;
  const auto sq = checked_mul(x, x);
  const auto sum = checked_add(s.sum, x);
  const auto sumsq = sq ? checked_add(s.sumsq, *sq) : std::nullopt;
  if (!sum || !sumsq) {
    s.inexact = true;
    return;
  }
  s.sum = *sum;
  s.sumsq = *sumsq;
}

// Chan et al.'s pairwise combination of two (count, mean, M2) states.
void combine_double(HostAggState& into, const HostAggState& from, const AggContext&) {
  if (from.count == 0) return;
  if (into.count == 0) {
    into.count = from.count;
    into.fsum = from.fsum;
    into.fsumsq = from.fsumsq;
    return;
  }
  const double na = static_cast<double>(into.count), nb = static_cast<double>(from.count);
  const double delta = from.fsum - into.fsum;
  into.count += from.count;
  into.fsum += delta * nb / (na + nb);
  into.fsumsq += from.fsumsq + delta * delta * na * nb / (na + nb);
}

// Exact sums combine while both fit; Welford's states always (combine_double).
void combine_exact(HostAggState& into, const HostAggState& from, const AggContext& ctx) {
  const auto sum = checked_add(into.sum, from.sum);
  const auto sumsq = checked_add(into.sumsq, from.sumsq);
  into.inexact = into.inexact || from.inexact || !sum || !sumsq;
  if (!into.inexact) {
    into.sum = *sum;
    into.sumsq = *sumsq;
  }
  combine_double(into, from, ctx);
}

double variance(const HostAggState& s, const AggContext& ctx, bool exact) {
  const int scale = ctx.arg.is_decimal() ? ctx.arg.scale : 0;
  if (!exact) return tally_finals::variance_from_m2(s.count, s.fsumsq);
  if (!s.inexact) return tally_finals::variance_exact(s.count, s.sum, s.sumsq, scale);
  // M2 of unscaled values: the scale comes off squared.
  const double unit = std::pow(10.0, scale);
  return tally_finals::variance_from_m2(s.count, s.fsumsq) / (unit * unit);
}

template <bool Exact, bool Root>
Value final(const HostAggState& s, const AggContext& ctx) {
  if (s.count < 2) return Value();
  const double var = variance(s, ctx, Exact);
  return Value::from_double(Root ? std::sqrt(var) : var);
}

template <bool Exact, bool Root>
std::string device_final(const DeviceFinal& d) {
  const std::string& n = d.fields[0];
  std::string var =
      Exact ? fmt::format("tally_finals::variance_exact((long long){}, {}, {}, {})", n, d.fields[1],
                          d.fields[2], d.in_scale)
            : fmt::format(
                  "tally_finals::variance_from_m2((long long){0}, {1} - {2} * {2} / (f64){0})", n,
                  d.fields[2], d.fields[3]);
  if (Root) var = fmt::format("sqrt({})", var);
  return fmt::format("    {0} = {1} < 2;\n    if ({1} >= 2) {2} = {3};\n", d.null, n, d.out,
                     double_bits(var));
}

AggregateTyping typing(const Type& arg) {
  // A HUGEINT's square passes 128 bits: its moments are DOUBLE's, as DuckDB computes them.
  if (arg.is_hugeint()) return {Type::double_(), nullptr, Type::double_()};
  if (arg.is_numeric()) return {Type::double_(), nullptr};
  return {std::nullopt, "the argument must be numeric"};
}

StateKind variance_state(const Type& arg) {
  return arg.is_float() ? StateKind::VarianceDouble : StateKind::VarianceWide;
}

StateKind stddev_state(const Type& arg) {
  return arg.is_float() ? StateKind::StddevDouble : StateKind::StddevWide;
}

const std::vector<FieldKind> kExactFields = {FieldKind::Count, FieldKind::SumI128,
                                             FieldKind::SumSqI128};
// The mean comes from the first pass's count and sum; the second sums deviations from it.
const std::vector<FieldKind> kDoubleFields = {FieldKind::Count, FieldKind::SumF64,
                                              FieldKind::SumSqF64, FieldKind::DevSumF64};

}  // namespace

const StateInfo kVarianceWideState = {StateKind::VarianceWide,
                                      "VarianceWide",
                                      kExactFields,
                                      SumGrowth::Square,
                                      false,
                                      update_exact,
                                      combine_exact,
                                      final<true, false>,
                                      device_final<true, false>};
const StateInfo kVarianceDoubleState = {StateKind::VarianceDouble,
                                        "VarianceDouble",
                                        kDoubleFields,
                                        SumGrowth::None,
                                        false,
                                        update_double,
                                        combine_double,
                                        final<false, false>,
                                        device_final<false, false>};
const StateInfo kStddevWideState = {
    StateKind::StddevWide, "StddevWide",  kExactFields,      SumGrowth::Square,       false,
    update_exact,          combine_exact, final<true, true>, device_final<true, true>};
const StateInfo kStddevDoubleState = {
    StateKind::StddevDouble, "StddevDouble", kDoubleFields,      SumGrowth::None,          false,
    update_double,           combine_double, final<false, true>, device_final<false, true>};

const AggregateFunction kVarSamp = {AggKind::VarSamp,       "VAR_SAMP", {"VAR_SAMP", "VARIANCE"},
                                    DistinctRule::Rejected, typing,     variance_state};
const AggregateFunction kStddevSamp = {
    AggKind::StddevSamp,    "STDDEV_SAMP", {"STDDEV_SAMP", "STDDEV"},
    DistinctRule::Rejected, typing,        stddev_state};

}  // namespace tally::aggregates
