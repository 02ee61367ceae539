// SKEWNESS(x) and KURTOSIS(x) (DuckDB): the sample skewness and sample excess kurtosis with
// DuckDB's bias corrections, DOUBLE; NULL below 3 (4) values or with no spread, an error
// where the result is not finite. The binder casts x to DOUBLE. The host keeps the count,
// mean and central moment sums M2, M3, M4 by Pébay's one-pass update and pairwise
// combination (no cancellation between raw power sums); the device sums the deviations'
// powers in a second pass, as the DOUBLE variance does (templates/tally_stat_finals.cuh).
#include <fmt/format.h>

#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/host_state_ops.h"
#include "templates/tally_stat_finals.cuh"

namespace tally::aggregates {

namespace {

// Pébay (2008), eq. 2.1-2.3 for one value: fsum is the mean, fsumsq M2.
void update(HostAggState& s, const Value& v, const AggContext&) {
  const double n1 = static_cast<double>(s.count);
  ++s.count;
  const double n = n1 + 1.0, delta = v.f - s.fsum, dn = delta / n, dn2 = dn * dn;
  const double term = delta * dn * n1;
  s.fsum += dn;
  s.m4 += term * dn2 * (n * n - 3.0 * n + 3.0) + 6.0 * dn2 * s.fsumsq - 4.0 * dn * s.m3;
  s.m3 += term * dn * (n - 2.0) - 3.0 * dn * s.fsumsq;
  s.fsumsq += term;
}

// Pébay's pairwise combination of two (count, mean, M2, M3, M4) states.
void combine(HostAggState& into, const HostAggState& from, const AggContext&) {
  if (combine_with_empty(into, from)) return;
  const double na = static_cast<double>(into.count), nb = static_cast<double>(from.count);
  const double n = na + nb, d = from.fsum - into.fsum, d2 = d * d;
  const double m2a = into.fsumsq, m2b = from.fsumsq, m3a = into.m3, m3b = from.m3;
  into.count += from.count;
  into.fsum += d * nb / n;
  into.fsumsq = m2a + m2b + d2 * na * nb / n;
  into.m3 =
      m3a + m3b + d2 * d * na * nb * (na - nb) / (n * n) + 3.0 * d * (na * m2b - nb * m2a) / n;
  into.m4 += from.m4 + d2 * d2 * na * nb * (na * na - na * nb + nb * nb) / (n * n * n) +
             6.0 * d2 * (na * na * m2b + nb * nb * m2a) / (n * n) +
             4.0 * d * (na * m3b - nb * m3a) / n;
}

tally_stats::Moments moments_of(const HostAggState& s) {
  return tally_stats::settled_moments(static_cast<double>(s.count), s.fsum, s.fsumsq, s.m3, s.m4);
}

template <bool Kurtosis>
Value final(const HostAggState& s, const AggContext&) {
  double value = 0;
  const tally_stats::Moments m = moments_of(s);
  const int r =
      Kurtosis ? tally_stats::kurtosis_final(m, &value) : tally_stats::skewness_final(m, &value);
  if (r == tally_stats::kMomentOutOfRange) overflow(Kurtosis ? "KURTOSIS is" : "SKEWNESS is");
  return r == tally_stats::kMomentValue ? Value::from_double(value) : Value();
}

// The device fields, in kFields' order: count, sum, then the second pass's sums of the
// deviations' squares, first powers, cubes and fourth powers.
template <bool Kurtosis>
std::string device_final(const DeviceFinal& d) {
  const auto& f = d.fields;
  return fmt::format(
      "    {{ const tally_stats::Moments m = tally_stats::moments_of_passes((long long){}, {}, {}, "
      "{}, {}, {});\n"
      "      double value = 0.0;\n"
      "      const int result = tally_stats::{}_final(m, &value);\n"
      "      {} = result != tally_stats::kMomentValue;\n"
      "      {} = {};\n"
      "      if (result == tally_stats::kMomentOutOfRange) raise_status(status, {}); }}\n",
      f[0], f[1], f[2], f[3], f[4], f[5], Kurtosis ? "kurtosis" : "skewness", d.null, d.out,
      double_bits("value"), Kurtosis ? "kStatusKurtosisOutOfRange" : "kStatusSkewnessOutOfRange");
}

AggregateTyping typing(const Type& arg) {
  if (arg.is_numeric()) return {Type::double_(), nullptr, Type::double_()};
  return {std::nullopt, "the argument must be numeric"};
}

StateKind skewness_state(const Type&) { return StateKind::Skewness; }
StateKind kurtosis_state(const Type&) { return StateKind::Kurtosis; }

const std::vector<FieldKind> kFields = {FieldKind::Count,      FieldKind::SumF64,
                                        FieldKind::SumSqF64,   FieldKind::DevSumF64,
                                        FieldKind::DevCubeF64, FieldKind::DevFourthF64};

}  // namespace

const StateInfo kSkewnessState = {
    StateKind::Skewness, "Skewness",         kFields, SumGrowth::None, false, update, combine,
    final<false>,        device_final<false>};
const StateInfo kKurtosisState = {
    StateKind::Kurtosis, "Kurtosis",        kFields, SumGrowth::None, false, update, combine,
    final<true>,         device_final<true>};

const AggregateFunction kSkewness = {AggKind::Skewness,      "SKEWNESS", {"SKEWNESS"},
                                     DistinctRule::Rejected, typing,     skewness_state};
const AggregateFunction kKurtosis = {AggKind::Kurtosis,      "KURTOSIS", {"KURTOSIS"},
                                     DistinctRule::Rejected, typing,     kurtosis_state};

}  // namespace tally::aggregates
