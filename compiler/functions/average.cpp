// AVG: DECIMAL(38, max(s, 6)) over integers and DECIMALs, exact to that scale and rounded
// half away from zero; DOUBLE over REAL and DOUBLE, and over HUGEINT (DuckDB's type).
#include <fmt/format.h>

#include <algorithm>

#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/host_state_ops.h"
#include "templates/tally_finals.cuh"

namespace tally::aggregates {

namespace {

Value final_wide(const HostAggState& s, const AggContext& ctx) {
  if (s.count == 0) return Value();
  if (ctx.result.is_float())
    return Value::from_double(tally_finals::average_double(s.sum, s.count));
  int128 out;
  const int in_scale = ctx.arg.is_decimal() ? ctx.arg.scale : 0;
  if (!tally_finals::average_exact(s.sum, s.count, in_scale, ctx.result.scale, &out)) {
    overflow("avg");
  }
  return Value::from_decimal(out);
}

Value final_double(const HostAggState& s, const AggContext&) {
  return s.count ? Value::from_double(s.fsum / static_cast<double>(s.count)) : Value();
}

std::string device_wide(const DeviceFinal& d) {
  if (d.float_out) {
    return fmt::format("    {0} = {1} == 0; {2} = {3};\n", d.null, d.fields[0], d.out,
                       double_bits(fmt::format("tally_finals::average_double({}, (long long){})",
                                               d.fields[1], d.fields[0])));
  }
  return fmt::format(
      "    {0} = {1} == 0;\n    if ({1} != 0 && !tally_finals::average_exact({3}, (long "
      "long){1}, {4}, {5}, &{2})) "
      "raise_status(status, kStatusNumericOverflow);\n",
      d.null, d.fields[0], d.out, d.fields[1], d.in_scale, d.out_scale);
}

std::string device_double(const DeviceFinal& d) {
  return fmt::format("    {0} = {1} == 0; {2} = {3};\n", d.null, d.fields[0], d.out,
                     double_bits(fmt::format("({} / (f64){})", d.fields[1], d.fields[0])));
}

AggregateTyping typing(const Type& arg) {
  if (arg.is_integer()) return {Type::decimal(kMaxDecimalPrecision, 6), nullptr};
  if (arg.is_hugeint()) return {Type::double_(), nullptr};  // DuckDB's, from an exact sum
  if (arg.is_decimal()) {
    return {Type::decimal(kMaxDecimalPrecision, std::max<int>(arg.scale, 6)), nullptr};
  }
  if (arg.is_float()) return {Type::double_(), nullptr};
  if (arg.is_interval()) return {arg, nullptr};
  return {std::nullopt, "the argument must be numeric"};
}

StateKind state(const Type& arg) {
  if (arg.is_interval()) return StateKind::AvgInterval;
  return arg.is_float() ? StateKind::AvgDouble : StateKind::AvgWide;
}

}  // namespace

const StateInfo kAvgWideState = {
    StateKind::AvgWide, "AvgWide",  {FieldKind::Count, FieldKind::SumI128},
    SumGrowth::Linear,  false,      update_exact_sum,
    combine_sums,       final_wide, device_wide};
const StateInfo kAvgDoubleState = {
    StateKind::AvgDouble, "AvgDouble",  {FieldKind::Count, FieldKind::SumF64},
    SumGrowth::None,      false,        update_double_sum,
    combine_sums,         final_double, device_double};

const AggregateFunction kAvg = {AggKind::Avg,           "AVG",  {"AVG"},
                                DistinctRule::Accepted, typing, state};

}  // namespace tally::aggregates
