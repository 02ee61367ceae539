// APPROX_COUNT_DISTINCT(x) (DuckDB): the distinct non-NULL values of the group, estimated
// by a HyperLogLog sketch of 2^10 registers (templates/tally_hll.cuh: a standard error of
// 3.25%, exact-ish below 2,560 values); BIGINT, 0 over no values. Sketches of parts merge
// by taking each register's maximum, so the estimate is the same however rows are split.
#include <algorithm>
#include <bit>
#include <cmath>

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

// The value's hash as both engines compute it (tally_hll::hash_words).
uint64_t value_hash(const Value& v, const AggContext& ctx) {
  int128 words = 0;
  if (ctx.arg.is_string()) {
    words = static_cast<int128>(string_words(ctx.strings->get(v.i)));
  } else if (ctx.arg.is_exact128()) {
    words = v.d;
  } else if (ctx.arg.is_float()) {
    const double f = v.f == 0.0 ? 0.0 : (std::isnan(v.f) ? std::nan("") : v.f);
    words = static_cast<int128>(std::bit_cast<uint64_t>(f));
  } else {
    words = v.i;
  }
  const auto bits = static_cast<unsigned __int128>(words);
  return tally_hll::hash_words(static_cast<uint64_t>(bits), static_cast<uint64_t>(bits >> 64));
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

}  // namespace

// The sketch has 1 KiB a group and no device state yet: the CPU engine keeps it.
const StateInfo kApproxDistinctState = {StateKind::ApproxDistinct,
                                        "ApproxDistinct",
                                        {FieldKind::Count},
                                        SumGrowth::None,
                                        false,
                                        update,
                                        combine,
                                        final,
                                        nullptr,
                                        nullptr,
                                        true};

// Each value counts once however often it comes: DISTINCT changes nothing.
const AggregateFunction kApproxCountDistinct = {AggKind::ApproxCountDistinct,
                                                "APPROX_COUNT_DISTINCT",
                                                {"APPROX_COUNT_DISTINCT"},
                                                DistinctRule::Ignored,
                                                typing,
                                                state};

}  // namespace tally::aggregates
