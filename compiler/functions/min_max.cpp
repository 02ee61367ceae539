// MIN and MAX of any ordered type: numbers, DECIMALs, dates, strings (by bytes), booleans
// (false < true). The result has the argument's type.
#include <fmt/format.h>

#include "compiler/common/value_ops.h"
#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/host_state_ops.h"

namespace tally::aggregates {

namespace {

template <int Sign>  // -1: keep the least value, +1: the greatest
void keep(HostAggState& s, const Value& v, const AggContext& ctx) {
  if (s.extreme.null) {
    s.extreme = v;
    return;
  }
  const int c = compare_values(v, s.extreme, ctx.arg, ctx.strings);
  if (Sign < 0 ? c < 0 : c > 0) s.extreme = v;
}

template <int Sign>
void update(HostAggState& s, const Value& v, const AggContext& ctx) {
  ++s.count;
  keep<Sign>(s, v, ctx);
}

template <int Sign>
void combine(HostAggState& into, const HostAggState& from, const AggContext& ctx) {
  into.count += from.count;
  if (!from.extreme.null) keep<Sign>(into, from.extreme, ctx);
}

Value final(const HostAggState& s, const AggContext&) { return s.extreme; }

std::string device_exact(const DeviceFinal& d) {
  return fmt::format("    {0} = {1} == 0; {2} = (i128){3};\n", d.null, d.fields[0], d.out,
                     d.fields[1]);
}

std::string device_double(const DeviceFinal& d) {
  return fmt::format("    {0} = {1} == 0; {2} = {3};\n", d.null, d.fields[0], d.out,
                     double_bits(d.fields[1]));
}

AggregateTyping typing(const Type& arg) {
  if (arg.id == TypeId::Null) return {std::nullopt, "the argument type is unknown"};
  return {arg, nullptr};
}

StateKind min_state(const Type& arg) {
  if (arg.is_exact128() || arg.is_interval()) return StateKind::MinWide;
  return arg.is_float() ? StateKind::MinDouble : StateKind::MinInt;
}

StateKind max_state(const Type& arg) {
  if (arg.is_exact128() || arg.is_interval()) return StateKind::MaxWide;
  return arg.is_float() ? StateKind::MaxDouble : StateKind::MaxInt;
}

template <int Sign>
StateInfo extreme(StateKind kind, const char* name, FieldKind field,
                  std::string (*device)(const DeviceFinal&)) {
  return {
      kind,  name,  {FieldKind::Count, field}, SumGrowth::None, true, update<Sign>, combine<Sign>,
      final, device};
}

}  // namespace

const StateInfo kMinIntState =
    extreme<-1>(StateKind::MinInt, "MinInt", FieldKind::MinI64, device_exact);
const StateInfo kMaxIntState =
    extreme<1>(StateKind::MaxInt, "MaxInt", FieldKind::MaxI64, device_exact);
const StateInfo kMinWideState =
    extreme<-1>(StateKind::MinWide, "MinWide", FieldKind::MinI128, device_exact);
const StateInfo kMaxWideState =
    extreme<1>(StateKind::MaxWide, "MaxWide", FieldKind::MaxI128, device_exact);
const StateInfo kMinDoubleState =
    extreme<-1>(StateKind::MinDouble, "MinDouble", FieldKind::MinF64, device_double);
const StateInfo kMaxDoubleState =
    extreme<1>(StateKind::MaxDouble, "MaxDouble", FieldKind::MaxF64, device_double);

const AggregateFunction kMin = {AggKind::Min,          "MIN",  {"MIN"},
                                DistinctRule::Ignored, typing, min_state};
const AggregateFunction kMax = {AggKind::Max,          "MAX",  {"MAX"},
                                DistinctRule::Ignored, typing, max_state};

}  // namespace tally::aggregates
