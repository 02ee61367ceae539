#include "runtime/gpu/state_cells.h"

#include <algorithm>
#include <bit>

#include "compiler/common/error.h"
#include "compiler/functions/host_state_ops.h"
#include "compiler/plan/partial_states.h"
#include "templates/tally_arg_pair.cuh"
#include "templates/tally_stat_finals.cuh"

namespace tally {

namespace {

// One aggregate's fields in one group's row of cells, in its StateInfo's field order.
struct FieldCells {
  const int128* row;
  const std::vector<int>& ids;

  int128 cell(size_t i) const { return row[ids[i]]; }
  int64_t i64(size_t i) const { return static_cast<int64_t>(cell(i)); }
  double f64(size_t i) const { return std::bit_cast<double>(static_cast<uint64_t>(cell(i))); }
};

// Welford's running mean and M2 (fsum, fsumsq) of exact sums: what an exact variance's final
// reads should the combined sums pass 128 bits (compiler/functions/variance.cpp).
void welford_of_sums(HostAggState& s) {
  if (s.count == 0) return;
  const auto n = static_cast<long double>(s.count);
  const auto sum = static_cast<long double>(s.sum);
  const auto squares =
      static_cast<long double>(tally_finals::i256_to_double(aggregates::square_sum(s)));
  s.fsum = static_cast<double>(sum / n);
  s.fsumsq = static_cast<double>(std::max<long double>(0, squares - sum * sum / n));
}

// The second pass summed deviations from the part's own mean sum / count; corrected, that is
// the (count, mean, M2) state the host's Welford and Chan steps keep.
void welford_of_deviations(HostAggState& s, const FieldCells& c) {
  if (s.count == 0) return;
  const auto n = static_cast<double>(s.count);
  const double dev_sq = c.f64(2), dev_sum = c.f64(3);
  s.fsum = c.f64(1) / n + dev_sum / n;
  s.fsumsq = std::max(0.0, dev_sq - dev_sum * dev_sum / n);
}

// The two passes' sums of a co-moment state (compiler/functions/comoments.cpp lists them) as
// the host's Welford state: both means, both M2s and C_xy.
void comoments_of_passes(HostAggState& s, const FieldCells& c) {
  const tally_stats::CoMoments m = tally_stats::comoments_of_passes(
      s.count, c.f64(1), c.f64(2), c.f64(3), c.f64(4), c.f64(5), c.f64(6), c.f64(7));
  s.fsum = m.mean_y;
  s.fsumsq = m.syy;
  s.mean_x = m.mean_x;
  s.m2_x = m.sxx;
  s.c_xy = m.sxy;
}

// The same for SKEWNESS and KURTOSIS (compiler/functions/moments.cpp): mean, M2, M3, M4.
void moments_of_passes(HostAggState& s, const FieldCells& c) {
  const tally_stats::Moments m =
      tally_stats::moments_of_passes(s.count, c.f64(1), c.f64(2), c.f64(3), c.f64(4), c.f64(5));
  s.fsum = m.mean;
  s.fsumsq = m.m2;
  s.m3 = m.m3;
  s.m4 = m.m4;
}

// A MIN/MAX's kept value, a Value of the argument's type; NULL over no values.
Value extreme_of(const FieldCells& c, const AggregateCall& call, size_t a,
                 const StateStringId& string_id) {
  if (c.i64(0) == 0) return Value();
  const Type& type = call.arg->type;
  if (type.is_string()) return Value::from_int(string_id(a, c.i64(1)));
  if (type.is_exact128()) return Value::from_decimal(c.cell(1));
  if (type.is_float()) return Value::from_double(c.f64(1));
  return Value::from_int(c.i64(1));
}

// ARG_MIN / ARG_MAX's kept value from its integer bits (a double's bits for a float).
Value arg_value_of(const AggregateCall& call, size_t a, int64_t bits,
                   const StateStringId& string_id) {
  const Type& type = call.arg->type;
  if (type.is_string()) return Value::from_int(string_id(a, bits));
  if (type.is_decimal()) return Value::from_decimal(bits);
  return type.is_float() ? Value::from_double(std::bit_cast<double>(bits)) : Value::from_int(bits);
}

// Its key from the key's 64-bit image (the key's strings never reach here:
// compiler/plan/partial_states.cpp refuses them).
Value arg_key_of(const AggregateCall& call, int64_t key) {
  if (call.key->type.is_decimal()) return Value::from_decimal(key);
  if (call.key->type.is_float()) {
    return Value::from_double(std::bit_cast<double>(tally_arg_pair::double_bits_of_ordered(key)));
  }
  return Value::from_int(key);
}

// An ARG_MIN / ARG_MAX pair word's value and key as the host state keeps them.
void arg_pair_of(HostAggState& s, const FieldCells& c, const AggregateCall& call, size_t a,
                 const StateStringId& string_id, bool greatest) {
  if (s.count == 0) return;
  const bool is_float = call.arg->type.is_float();
  s.extreme = arg_value_of(call, a, tally_arg_pair::pair_value_bits(c.cell(1), greatest, is_float),
                           string_id);
  s.key = arg_key_of(call, tally_arg_pair::pair_key(c.cell(1)));
}

// The two-pass state's key and value images (templates/tally_arg_pair.cuh wide_key_image).
void arg_images_of(HostAggState& s, const FieldCells& c, const AggregateCall& call, size_t a,
                   const StateStringId& string_id) {
  if (s.count == 0) return;
  if (call.arg->type.is_wide_decimal()) {
    s.extreme = Value::from_decimal(c.cell(2));
  } else {
    const auto image = static_cast<uint64_t>(c.cell(2));
    s.extreme = arg_value_of(
        call, a, tally_arg_pair::image_value_bits(image, call.arg->type.is_float()), string_id);
  }
  s.key = call.key->type.is_wide_decimal() ? Value::from_decimal(c.cell(1))
                                           : arg_key_of(call, static_cast<int64_t>(c.cell(1)));
}

HostAggState host_state(const StateLayout& layout, const FieldCells& c, const AggregateCall& call,
                        size_t a, const StateStringId& string_id) {
  const StateKind kind = layout.aggregate_states[a];
  HostAggState s;
  s.count = c.i64(0);
  switch (kind) {
    case StateKind::Count:
      break;
    case StateKind::SumInt:
    case StateKind::SumWide:
    case StateKind::AvgWide:
    case StateKind::CountIf:
      s.sum = c.cell(1);
      break;
    case StateKind::SumDouble:
    case StateKind::AvgDouble:
      s.fsum = c.f64(1);
      break;
    case StateKind::MinInt:
    case StateKind::MaxInt:
    case StateKind::MinWide:
    case StateKind::MaxWide:
    case StateKind::MinDouble:
    case StateKind::MaxDouble:
      s.extreme = extreme_of(c, call, a, string_id);
      break;
    case StateKind::VarianceWide:
    case StateKind::StddevWide:
      s.sum = c.cell(1);
      s.sumsq = c.cell(2);
      welford_of_sums(s);
      break;
    case StateKind::VarianceSplit:
    case StateKind::StddevSplit:
      s.sum = c.cell(1);
      aggregates::set_square_sum(s, tally_finals::split_square_sum(c.cell(2), c.cell(3), c.cell(4),
                                                                   layout.square_split.at(a)));
      welford_of_sums(s);
      break;
    case StateKind::VarianceDouble:
    case StateKind::StddevDouble:
      welford_of_deviations(s, c);
      break;
    case StateKind::BitAnd:
    case StateKind::BitOr:
    case StateKind::BitXor:
      // The host's fold starts from the first value, not the device's identity.
      s.sum = s.count ? c.i64(1) : 0;
      break;
    case StateKind::Product:
      s.fsum = s.count ? c.f64(1) : 0;
      break;
    case StateKind::CovarPop:
    case StateKind::CovarSamp:
    case StateKind::Corr:
    case StateKind::RegrSlope:
    case StateKind::RegrIntercept:
    case StateKind::RegrCount:
    case StateKind::RegrR2:
    case StateKind::RegrAvgX:
    case StateKind::RegrAvgY:
    case StateKind::RegrSxx:
    case StateKind::RegrSyy:
    case StateKind::RegrSxy:
      comoments_of_passes(s, c);
      break;
    case StateKind::Skewness:
    case StateKind::Kurtosis:
      moments_of_passes(s, c);
      break;
    case StateKind::ArgMin:
    case StateKind::ArgMax:
      arg_pair_of(s, c, call, a, string_id, kind == StateKind::ArgMax);
      break;
    case StateKind::ArgMinWide:
    case StateKind::ArgMaxWide:
      arg_images_of(s, c, call, a, string_id);
      break;
    case StateKind::QuantileCont:
    case StateKind::QuantileDisc:
    case StateKind::Mode:
    case StateKind::StringAgg:
    case StateKind::FirstOrdered:
    case StateKind::LastOrdered:
    case StateKind::SumInterval:
    case StateKind::AvgInterval:
      throw Error(ErrorKind::Internal,
                  std::string(state_info(kind).name) + " has no GPU state (CPU engine only)");
    case StateKind::ApproxDistinct:  // why_states_do_not_combine refuses its parts
      throw Error(ErrorKind::Internal, "a GPU sketch has no state cells to decode");
    case StateKind::CountDistinctBits:  // ... as it refuses every DISTINCT aggregate's
      throw Error(ErrorKind::Internal, "a GPU DISTINCT bit set has no state cells to decode");
  }
  return s;
}

// The plan's layout names each aggregate's fields as its state kind lists them.
void check_layout(const BoundSelect& query, const GpuPlan& plan) {
  if (auto why = why_states_do_not_combine(query, plan)) throw Error(ErrorKind::Unsupported, *why);
  const uint64_t count = state_cell_count(plan);
  for (size_t a = 0; a < query.aggregates.size(); ++a) {
    const auto& ids = plan.layout.aggregate_fields[a];
    const bool in_range = std::all_of(ids.begin(), ids.end(), [&](int id) {
      return id >= 0 && static_cast<uint64_t>(id) < count;
    });
    if (!in_range || ids.size() != state_info(plan.layout.aggregate_states[a]).fields.size()) {
      throw Error(ErrorKind::Internal, "a state layout does not match its aggregate's state");
    }
  }
}

}  // namespace

HostAggState group_state(const StateLayout& layout, const int128* cells, const AggregateCall& call,
                         size_t a, const StateStringId& string_id) {
  return host_state(layout, FieldCells{cells, layout.aggregate_fields[a]}, call, a, string_id);
}

PartialGroups partial_groups_from_cells(const BoundSelect& query, const GpuPlan& plan,
                                        std::vector<std::vector<Value>> keys, const int128* cells,
                                        std::shared_ptr<StringHeap> strings,
                                        const StateStringId& string_id) {
  check_layout(query, plan);
  const uint64_t count = state_cell_count(plan);
  const size_t na = query.aggregates.size();
  PartialGroups groups;
  groups.strings = std::move(strings);
  groups.states.resize(keys.size());
  for (size_t g = 0; g < keys.size(); ++g) {
    const int128* row = cells + g * count;
    groups.states[g].resize(na);
    for (size_t a = 0; a < na; ++a) {
      groups.states[g][a].plain = group_state(plan.layout, row, query.aggregates[a], a, string_id);
    }
  }
  groups.keys = std::move(keys);
  return groups;
}

}  // namespace tally
