// The co-moment state's steps (comoments.h): host update, combine and final, and the
// device final, for every aggregate of (y, x) at once.
#include "compiler/functions/comoments.h"

#include <fmt/format.h>

#include <iterator>

#include "compiler/common/error.h"
#include "compiler/functions/host_state_ops.h"
#include "templates/tally_stat_finals.cuh"

namespace tally::aggregates {

namespace {

// One pair (y, x): Welford's update of both means and sums of squared deviations, and of the
// sum of products of deviations (y's deviation from its new mean, x's from its old one:
// their product sums to C_xy exactly as Welford's M2 does). fsum and fsumsq are y's.
void update_pair(HostAggState& s, const Value& y, const Value& x, const AggContext&) {
  ++s.count;
  const double n = static_cast<double>(s.count);
  const double dx = x.f - s.mean_x, dy = y.f - s.fsum;
  s.mean_x += dx / n;
  s.fsum += dy / n;
  s.m2_x += dx * (x.f - s.mean_x);
  s.fsumsq += dy * (y.f - s.fsum);
  s.c_xy += dx * (y.f - s.fsum);
}

// Never called: the row path merges aggregates of two arguments through update_pair.
void update(HostAggState&, const Value&, const AggContext&) {
  throw Error(ErrorKind::Internal, "a co-moment aggregate merged without its second argument");
}

// Chan et al.'s pairwise combination, extended to the cross term.
void combine(HostAggState& into, const HostAggState& from, const AggContext&) {
  if (combine_with_empty(into, from)) return;
  const double na = static_cast<double>(into.count), nb = static_cast<double>(from.count);
  const double n = na + nb, dx = from.mean_x - into.mean_x, dy = from.fsum - into.fsum;
  const double weight = na * nb / n;
  into.count += from.count;
  into.mean_x += dx * nb / n;
  into.fsum += dy * nb / n;
  into.m2_x += from.m2_x + dx * dx * weight;
  into.fsumsq += from.fsumsq + dy * dy * weight;
  into.c_xy += from.c_xy + dx * dy * weight;
}

tally_stats::CoMoments comoments_of(const HostAggState& s) {
  return tally_stats::settled_comoments(static_cast<double>(s.count), s.mean_x, s.fsum, s.m2_x,
                                        s.fsumsq, s.c_xy);
}

template <int Stat>
Value final(const HostAggState& s, const AggContext&) {
  double value = 0;
  if (!tally_stats::comoment_final(Stat, comoments_of(s), &value)) return Value();
  return Value::from_double(value);
}

// tally_stats::CoMomentStat's names, in its order, for the generated code to read.
constexpr const char* kStatNames[] = {"kCovarPop",      "kCovarSamp", "kCorr",     "kRegrSlope",
                                      "kRegrIntercept", "kRegrR2",    "kRegrAvgX", "kRegrAvgY",
                                      "kRegrSxx",       "kRegrSyy",   "kRegrSxy"};
static_assert(std::size(kStatNames) == tally_stats::kRegrSxy + 1);

// The device fields, in comoment_fields()' order: count, y's sum, y's squared deviations and
// deviations, x's sum, x's squared deviations and deviations, the products of deviations.
template <int Stat>
std::string device_final(const DeviceFinal& d) {
  const auto& f = d.fields;
  return fmt::format(
      "    {{ const tally_stats::CoMoments m = tally_stats::comoments_of_passes((long long){}, {}, "
      "{}, {}, {}, {}, {}, {});\n"
      "      double value = 0.0;\n"
      "      {} = !tally_stats::comoment_final(tally_stats::{}, m, &value);\n"
      "      {} = {}; }}\n",
      f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], d.null, kStatNames[Stat], d.out,
      double_bits("value"));
}

Value count_final(const HostAggState& s, const AggContext&) { return Value::from_int(s.count); }

std::string count_device_final(const DeviceFinal& d) {
  return fmt::format("    {} = false; {} = (i128){};\n", d.null, d.out, d.fields[0]);
}

// A function, not a global: the states are built during other files' static initialization
// (covariance.cpp, regression.cpp), which may run before this file's.
std::vector<FieldKind> comoment_fields() {
  return {FieldKind::Count,        FieldKind::SumF64,    FieldKind::SumSqF64,
          FieldKind::DevSumF64,    FieldKind::SumKeyF64, FieldKind::DevSqKeyF64,
          FieldKind::DevSumKeyF64, FieldKind::CoDevF64};
}

StateInfo make_state(StateKind kind, const char* name,
                     Value (*fin)(const HostAggState&, const AggContext&),
                     std::string (*device)(const DeviceFinal&)) {
  StateInfo s{kind, name, comoment_fields(), SumGrowth::None, false, update, combine, fin, device};
  s.update_pair = update_pair;
  return s;
}

template <int Stat>
StateInfo stat_state(StateKind kind, const char* name) {
  return make_state(kind, name, final<Stat>, device_final<Stat>);
}

}  // namespace

StateInfo comoment_state(StateKind kind, const char* name, int stat) {
  using namespace tally_stats;
  switch (stat) {
    case kCovarPop:
      return stat_state<kCovarPop>(kind, name);
    case kCovarSamp:
      return stat_state<kCovarSamp>(kind, name);
    case kCorr:
      return stat_state<kCorr>(kind, name);
    case kRegrSlope:
      return stat_state<kRegrSlope>(kind, name);
    case kRegrIntercept:
      return stat_state<kRegrIntercept>(kind, name);
    case kRegrR2:
      return stat_state<kRegrR2>(kind, name);
    case kRegrAvgX:
      return stat_state<kRegrAvgX>(kind, name);
    case kRegrAvgY:
      return stat_state<kRegrAvgY>(kind, name);
    case kRegrSxx:
      return stat_state<kRegrSxx>(kind, name);
    case kRegrSyy:
      return stat_state<kRegrSyy>(kind, name);
    case kRegrSxy:
      return stat_state<kRegrSxy>(kind, name);
    default:
      throw Error(ErrorKind::Internal, "unknown co-moment statistic");
  }
}

StateInfo regr_count_state() {
  return make_state(StateKind::RegrCount, "RegrCount", count_final, count_device_final);
}

AggregateTyping comoment_typing_pair(const Type& y, const Type& x) {
  auto numeric = [](const Type& t) { return t.is_numeric() || t.id == TypeId::Null; };
  if (!numeric(y) || !numeric(x)) return {std::nullopt, "both arguments must be numeric"};
  return {Type::double_(), nullptr, Type::double_(), Type::double_()};
}

AggregateTyping comoment_typing(const Type& arg) {
  if (arg.is_numeric()) return {Type::double_(), nullptr, Type::double_()};
  return {std::nullopt, "two numeric arguments are needed"};
}

AggregateFunction comoment_function(AggKind kind, const char* name,
                                    std::vector<std::string_view> names,
                                    StateKind (*state)(const Type&)) {
  return {kind,
          name,
          std::move(names),
          DistinctRule::Rejected,
          comoment_typing,
          state,
          comoment_typing_pair};
}

}  // namespace tally::aggregates
