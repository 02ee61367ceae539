// ARG_MIN(value, key) and ARG_MAX(value, key) (MIN_BY/MAX_BY): the value of the row with the
// least (greatest) key; rows whose value or key is NULL are skipped (DuckDB's arg_min).
// Among rows that tie on the key the least value wins (-0.0 before 0.0), so the answer does
// not depend on the order rows arrive in, nor on the engine: the GPU keeps the pair packed
// in one 128-bit word ordered the same way (templates/tally_arg_pair.cuh).
#include <fmt/format.h>

#include <cmath>

#include "compiler/common/error.h"
#include "compiler/common/value_ops.h"
#include "compiler/functions/aggregate_entries.h"

namespace tally::aggregates {

namespace {

// Whether value v comes before the kept one among rows of equal keys: it is less, or it is
// -0.0 where 0.0 is kept (they compare equal, but print apart).
bool lesser_value(const Value& v, const Value& kept, const AggContext& ctx) {
  const int c = compare_values(v, kept, ctx.arg, ctx.strings);
  if (c != 0 || !ctx.arg.is_float()) return c < 0;
  return std::signbit(v.f) && !std::signbit(kept.f);
}

// Whether (key, v) replaces the pair kept so far: a better key, or the same key and a
// lesser value.
template <int Sign>
bool wins(const HostAggState& s, const Value& v, const Value& key, const AggContext& ctx) {
  if (s.key.null) return true;
  const int c = compare_values(key, s.key, ctx.key, ctx.strings);
  if (c != 0) return Sign < 0 ? c < 0 : c > 0;
  return lesser_value(v, s.extreme, ctx);
}

template <int Sign>
void keep(HostAggState& s, const Value& v, const Value& key, const AggContext& ctx) {
  if (!wins<Sign>(s, v, key, ctx)) return;
  s.extreme = v;
  s.key = key;
}

template <int Sign>
void update_pair(HostAggState& s, const Value& v, const Value& key, const AggContext& ctx) {
  ++s.count;
  keep<Sign>(s, v, key, ctx);
}

// Never called: the row path merges two-argument aggregates through update_pair.
void update(HostAggState&, const Value&, const AggContext&) {
  throw Error(ErrorKind::Internal, "ARG_MIN/ARG_MAX merged without its key");
}

template <int Sign>
void combine(HostAggState& into, const HostAggState& from, const AggContext& ctx) {
  into.count += from.count;
  if (!from.key.null) keep<Sign>(into, from.extreme, from.key, ctx);
}

Value final(const HostAggState& s, const AggContext&) { return s.extreme; }

// The value's bits out of the state word; a group with no row is NULL.
template <int Sign>
std::string device_final(const DeviceFinal& d) {
  const std::string bits = fmt::format("tally_arg_pair::pair_value_bits({}, {}, {})", d.fields[1],
                                       Sign > 0 ? "true" : "false", d.float_out ? "true" : "false");
  return fmt::format("    {0} = {1} == 0; {2} = {3};\n", d.null, d.fields[0], d.out,
                     d.float_out ? "(i128)(u64)" + bits : "(i128)" + bits);
}

// Both arguments must fit the 64-bit halves of the state word, or a DECIMAL wider than 18
// digits takes the two-pass state (kArgMinWideState).
const char* device_refusal(const Type& value, const Type& key) {
  auto fits = [](const Type& t) {
    return t.is_integer() || t.is_float() || t.is_decimal() || t.is_string() ||
           t.id == TypeId::Boolean || t.id == TypeId::Date;
  };
  if (value.is_hugeint() || key.is_hugeint()) return "a HUGEINT argument";
  if (!fits(value) || !fits(key)) return "an argument type its 64-bit state halves do not hold";
  return nullptr;
}

// The two-pass state's final: the value back from its image; NULL where no row merged.
std::string device_final_wide(const DeviceFinal& d) {
  const std::string& image = d.fields[2];
  std::string value;
  if (d.wide_value) {
    value = image;
  } else {
    const std::string bits = fmt::format("tally_arg_pair::image_value_bits((u64){}, {})", image,
                                         d.float_out ? "true" : "false");
    value = d.float_out ? "(i128)(u64)" + bits : "(i128)" + bits;
  }
  return fmt::format("    {0} = {1} == 0; {2} = {3};\n", d.null, d.fields[0], d.out, value);
}

AggregateTyping typing(const Type&) { return {std::nullopt, "two arguments are needed"}; }

AggregateTyping typing_pair(const Type& value, const Type& key) {
  if (value.id == TypeId::Null || key.id == TypeId::Null) {
    return {std::nullopt, "an argument's type is unknown"};
  }
  return {value, nullptr};
}

StateKind min_state(const Type&) { return StateKind::ArgMin; }
StateKind max_state(const Type&) { return StateKind::ArgMax; }

template <int Sign>
StateInfo arg_state(StateKind kind, const char* name, FieldKind pair) {
  StateInfo s{kind,          name,  {FieldKind::Count, pair}, SumGrowth::None, true, update,
              combine<Sign>, final, device_final<Sign>};
  s.update_pair = update_pair<Sign>;
  s.device_refusal = device_refusal;
  return s;
}

// The key's image first, then (second pass) the least value's image among its rows.
template <int Sign>
StateInfo wide_state(StateKind kind, const char* name, FieldKind key) {
  StateInfo s = arg_state<Sign>(kind, name, key);
  s.fields.push_back(FieldKind::ArgValueAtKey);
  s.device_final = device_final_wide;
  return s;
}

}  // namespace

const StateInfo kArgMinState = arg_state<-1>(StateKind::ArgMin, "ArgMin", FieldKind::ArgMinPair);
const StateInfo kArgMaxState = arg_state<1>(StateKind::ArgMax, "ArgMax", FieldKind::ArgMaxPair);
const StateInfo kArgMinWideState =
    wide_state<-1>(StateKind::ArgMinWide, "ArgMinWide", FieldKind::ArgKeyMinI128);
const StateInfo kArgMaxWideState =
    wide_state<1>(StateKind::ArgMaxWide, "ArgMaxWide", FieldKind::ArgKeyMaxI128);

// The kept row is the same with or without DISTINCT.
const AggregateFunction kArgMin = {
    AggKind::ArgMin, "ARG_MIN",  {"ARG_MIN", "MIN_BY"}, DistinctRule::Ignored, typing,
    min_state,       typing_pair};
const AggregateFunction kArgMax = {
    AggKind::ArgMax, "ARG_MAX",  {"ARG_MAX", "MAX_BY"}, DistinctRule::Ignored, typing,
    max_state,       typing_pair};

}  // namespace tally::aggregates
