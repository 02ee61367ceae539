// VAR_SAMP (VARIANCE) and STDDEV_SAMP (STDDEV), DOUBLE. Integer and DECIMAL arguments keep
// an exact state (count, a 128-bit sum, a 256-bit sum of squares): the final division is the
// only rounding. REAL and DOUBLE keep Welford's running mean and M2 on the host; on the device a
// second pass sums deviations from the first pass's mean (the corrected two-pass formula).
// The host keeps Welford's state beside the exact one too, for a sum past 128 bits (values
// near 2^127 over many rows), where PostgreSQL and DuckDB still answer. The GPU keeps squares
// in 128 bits, or where they pass that the values split in halves (VarianceSplit: three
// 128-bit sums), and the planner declines a state whose sums could overflow (SumGrowth).
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

// Adds a non-negative 256-bit value to the state's squares; false when they pass 255 bits.
bool add_squares(HostAggState& s, const tally_finals::I256& v) {
  const tally_finals::I256 total = tally_finals::i256_add(square_sum(s), v);
  if (tally_finals::i256_negative(total)) return false;
  set_square_sum(s, total);
  return true;
}

// Exact sums while they fit, Welford's state (of unscaled values) always.
void update_exact(HostAggState& s, const Value& v, const AggContext& ctx) {
  const int128 x = exact_value(v, ctx.arg);
  welford(s, static_cast<double>(x));
  if (s.inexact) return;
  const auto sum = checked_add(s.sum, x);
  if (!sum || !add_squares(s, tally_finals::i256_mul(x, x))) {
    s.inexact = true;
    return;
  }
  s.sum = *sum;
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
  into.inexact = into.inexact || from.inexact || !sum || !add_squares(into, square_sum(from));
  if (!into.inexact) into.sum = *sum;
  combine_double(into, from, ctx);
}

double variance(const HostAggState& s, const AggContext& ctx, bool exact) {
  const int scale = ctx.arg.is_decimal() ? ctx.arg.scale : 0;
  if (!exact) return tally_finals::variance_from_m2(s.count, s.fsumsq);
  double v = 0;
  if (!s.inexact && tally_finals::variance_exact_wide(s.count, s.sum, square_sum(s), scale, &v)) {
    return v;
  }
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

// The split state's fields: count, sum, then the sums of high^2, high*low and low^2.
template <bool Root>
std::string device_final_split(const DeviceFinal& d) {
  const auto& f = d.fields;
  std::string var =
      fmt::format("tally_finals::variance_split((long long){}, {}, {}, {}, {}, {}, {})", f[0], f[1],
                  f[2], f[3], f[4], d.square_split, d.in_scale);
  if (Root) var = fmt::format("sqrt({})", var);
  return fmt::format("    {0} = {1} < 2;\n    if ({1} >= 2) {2} = {3};\n", d.null, f[0], d.out,
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
const std::vector<FieldKind> kSplitFields = {FieldKind::Count, FieldKind::SumI128,
                                             FieldKind::SumSqHighI128, FieldKind::SumSqCrossI128,
                                             FieldKind::SumSqLowI128};
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

// Each part of a split square is below 2^(m+1) for values below 2^m: the sums grow as a
// SUM's do.
const StateInfo kVarianceSplitState = {StateKind::VarianceSplit,
                                       "VarianceSplit",
                                       kSplitFields,
                                       SumGrowth::Linear,
                                       false,
                                       update_exact,
                                       combine_exact,
                                       final<true, false>,
                                       device_final_split<false>};
const StateInfo kStddevSplitState = {
    StateKind::StddevSplit, "StddevSplit", kSplitFields,      SumGrowth::Linear,       false,
    update_exact,           combine_exact, final<true, true>, device_final_split<true>};

const AggregateFunction kVarSamp = {AggKind::VarSamp,       "VAR_SAMP", {"VAR_SAMP", "VARIANCE"},
                                    DistinctRule::Rejected, typing,     variance_state};
const AggregateFunction kStddevSamp = {
    AggKind::StddevSamp,    "STDDEV_SAMP", {"STDDEV_SAMP", "STDDEV"},
    DistinctRule::Rejected, typing,        stddev_state};

}  // namespace tally::aggregates
