// PRODUCT (DuckDB): the product of the non-NULL values as DOUBLE, NULL over no values. The
// binder casts the argument to DOUBLE, so the state multiplies DOUBLEs on every engine (in
// the engine's order: the last bits may differ between CPU and GPU, as SUM of DOUBLE's do).
#include <fmt/format.h>

#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/host_state_ops.h"

namespace tally::aggregates {

namespace {

// `fsum` holds the product so far; the first value sets it.
void fold(HostAggState& s, double x, int64_t count) {
  s.fsum = s.count == 0 ? x : s.fsum * x;
  s.count += count;
}

void update(HostAggState& s, const Value& v, const AggContext&) { fold(s, v.f, 1); }

void combine(HostAggState& into, const HostAggState& from, const AggContext&) {
  if (from.count != 0) fold(into, from.fsum, from.count);
}

Value final(const HostAggState& s, const AggContext&) {
  return s.count ? Value::from_double(s.fsum) : Value();
}

std::string device_final(const DeviceFinal& d) {
  return fmt::format("    {0} = {1} == 0; {2} = {3};\n", d.null, d.fields[0], d.out,
                     double_bits(d.fields[1]));
}

AggregateTyping typing(const Type& arg) {
  if (arg.is_numeric()) return {Type::double_(), nullptr, Type::double_()};
  return {std::nullopt, "the argument must be numeric"};
}

StateKind state(const Type&) { return StateKind::Product; }

}  // namespace

const StateInfo kProductState = {StateKind::Product,
                                 "Product",
                                 {FieldKind::Count, FieldKind::ProductF64},
                                 SumGrowth::None,
                                 false,
                                 update,
                                 combine,
                                 final,
                                 device_final};

const AggregateFunction kProduct = {AggKind::Product,       "PRODUCT", {"PRODUCT"},
                                    DistinctRule::Accepted, typing,    state};

}  // namespace tally::aggregates
