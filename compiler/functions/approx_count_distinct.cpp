// APPROX_COUNT_DISTINCT(x) (DuckDB): the distinct non-NULL values of the group, estimated
// by a HyperLogLog sketch of 2^10 registers (templates/tally_hll.cuh: a standard error of
// 3.25%, exact-ish below 2,560 values); BIGINT, 0 over no values. Sketches of parts merge
// by taking each register's maximum, so the estimate is the same however rows are split.
#include <fmt/format.h>

#include <algorithm>

#include "compiler/functions/aggregate_entries.h"
#include "templates/tally_hll.cuh"

namespace tally::aggregates {

namespace {

// FNV-1a over a string's bytes: its 64-bit form before the sketch's hash.
uint64_t string_words(const std::string& s) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ull;
  return h;
}

// The value's hash as both engines compute it (templates/tally_hll.cuh). The device has
// no string's bytes: it declines string arguments.
uint64_t value_hash(const Value& v, const AggContext& ctx) {
  if (ctx.arg.is_string()) return tally_hll::hash_words(string_words(ctx.strings->get(v.i)), 0);
  if (ctx.arg.is_exact128()) return tally_hll::hash_wide(v.d);
  if (ctx.arg.is_float()) return tally_hll::hash_double(v.f);
  return tally_hll::hash_integer(v.i);
}

void update(HostAggState& s, const Value& v, const AggContext& ctx) {
  ++s.count;
  if (s.sketch.empty()) s.sketch.assign(tally_hll::kRegisters, 0);
  const uint64_t h = value_hash(v, ctx);
  uint8_t& r = s.sketch[static_cast<size_t>(tally_hll::register_of(h))];
  r = std::max(r, static_cast<uint8_t>(tally_hll::rank_of(h)));
}

void combine(HostAggState& into, const HostAggState& from, const AggContext&) {
  into.count += from.count;
  if (from.sketch.empty()) return;
  if (into.sketch.empty()) into.sketch.assign(tally_hll::kRegisters, 0);
  for (size_t j = 0; j < into.sketch.size(); ++j) {
    into.sketch[j] = std::max(into.sketch[j], from.sketch[j]);
  }
}

Value final(const HostAggState& s, const AggContext&) {
  if (s.sketch.empty()) return Value::from_int(0);
  return Value::from_int(tally_hll::estimate(s.sketch.data()));
}

AggregateTyping typing(const Type& arg) {
  if (arg.id == TypeId::Null) return {std::nullopt, "the argument type is unknown"};
  return {Type::bigint(), nullptr};
}

StateKind state(const Type&) { return StateKind::ApproxDistinct; }

// The device keeps a sketch per group slot (templates/tally_hll.cuh's Sketch); no value has
// been merged where the count is 0.
std::string device_final(const DeviceFinal& d) {
  return fmt::format("    {} = {} == 0 ? (i128)0 : (i128)tally_hll::estimate({}); {} = 0;\n", d.out,
                     d.fields[0], d.fields[1], d.null);
}

// A string reaches the device as a code or an id, not as the bytes the CPU hashes.
const char* device_refusal(const Type& arg, const Type&) {
  return arg.is_string() ? "a string (the device hashes codes, not the bytes)" : nullptr;
}

StateInfo approx_distinct_state() {
  StateInfo s{StateKind::ApproxDistinct,
              "ApproxDistinct",
              {FieldKind::Count, FieldKind::HllSketch},
              SumGrowth::None,
              false,
              update,
              combine,
              final,
              device_final};
  s.holistic = true;  // no partial-state encoding holds a sketch
  s.device_refusal = device_refusal;
  return s;
}

}  // namespace

const StateInfo kApproxDistinctState = approx_distinct_state();

// Each value counts once however often it comes: DISTINCT changes nothing.
const AggregateFunction kApproxCountDistinct = {AggKind::ApproxCountDistinct,
                                                "APPROX_COUNT_DISTINCT",
                                                {"APPROX_COUNT_DISTINCT"},
                                                DistinctRule::Ignored,
                                                typing,
                                                state};

}  // namespace tally::aggregates
