// SUM: BIGINT over SMALLINT and INTEGER (2^32 rows of them cannot reach 2^63), DECIMAL(38, 0)
// over BIGINT (PostgreSQL's NUMERIC, DuckDB's HUGEINT: a sum past 2^63 is an answer, not an
// error), DECIMAL(38, s) over DECIMAL(p, s) (exact), DOUBLE over REAL and DOUBLE.
#include <fmt/format.h>

#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/host_state_ops.h"

namespace tally::aggregates {

namespace {

Value final_int(const HostAggState& s, const AggContext&) {
  if (s.count == 0) return Value();
  if (s.sum < INT64_MIN || s.sum > INT64_MAX) overflow("bigint");
  return Value::from_int(static_cast<int64_t>(s.sum));
}

Value final_wide(const HostAggState& s, const AggContext& ctx) {
  if (s.count == 0) return Value();
  // A HUGEINT sum is checked as it is added: all of int128 is its range.
  if (!ctx.result.is_hugeint() && !fits_precision(s.sum, kMaxDecimalPrecision)) overflow("sum");
  return Value::from_decimal(s.sum);
}

Value final_double(const HostAggState& s, const AggContext&) {
  return s.count ? Value::from_double(s.fsum) : Value();
}

std::string device_int(const DeviceFinal& d) {
  return fmt::format("    {0} = {1} == 0; {2} = (i128)check_int({3}, kI64Min, kI64Max, status);\n",
                     d.null, d.fields[0], d.out, d.fields[1]);
}

std::string device_wide(const DeviceFinal& d) {
  if (d.hugeint_out) {
    return fmt::format("    {0} = {1} == 0; {2} = {3};\n", d.null, d.fields[0], d.out, d.fields[1]);
  }
  return fmt::format("    {0} = {1} == 0; {2} = check_digits({3}, 38, status);\n", d.null,
                     d.fields[0], d.out, d.fields[1]);
}

std::string device_double(const DeviceFinal& d) {
  return fmt::format("    {0} = {1} == 0; {2} = {3};\n", d.null, d.fields[0], d.out,
                     double_bits(d.fields[1]));
}

AggregateTyping typing(const Type& arg) {
  if (arg.id == TypeId::BigInt) return {Type::decimal(kMaxDecimalPrecision, 0), nullptr};
  if (arg.is_hugeint()) return {Type::hugeint(), nullptr};  // DuckDB's; an overflow is an error
  if (arg.is_integer()) return {Type::bigint(), nullptr};
  if (arg.is_decimal()) return {Type::decimal(kMaxDecimalPrecision, arg.scale), nullptr};
  if (arg.is_float()) return {Type::double_(), nullptr};
  if (arg.is_interval()) return {arg, nullptr};
  return {std::nullopt, "the argument must be numeric"};
}

StateKind state(const Type& arg) {
  if (arg.is_interval()) return StateKind::SumInterval;
  if (arg.is_integer()) return arg.id == TypeId::BigInt ? StateKind::SumWide : StateKind::SumInt;
  return arg.is_exact128() ? StateKind::SumWide : StateKind::SumDouble;
}

}  // namespace

const StateInfo kSumIntState = {
    StateKind::SumInt, "SumInt",  {FieldKind::Count, FieldKind::SumI128},
    SumGrowth::Linear, false,     update_exact_sum,
    combine_sums,      final_int, device_int};
const StateInfo kSumWideState = {
    StateKind::SumWide, "SumWide",  {FieldKind::Count, FieldKind::SumI128},
    SumGrowth::Linear,  false,      update_exact_sum,
    combine_sums,       final_wide, device_wide};
const StateInfo kSumDoubleState = {
    StateKind::SumDouble, "SumDouble",  {FieldKind::Count, FieldKind::SumF64},
    SumGrowth::None,      false,        update_double_sum,
    combine_sums,         final_double, device_double};

const AggregateFunction kSum = {AggKind::Sum,           "SUM",  {"SUM"},
                                DistinctRule::Accepted, typing, state};

}  // namespace tally::aggregates
