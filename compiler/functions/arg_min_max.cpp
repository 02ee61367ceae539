// ARG_MIN(value, key) and ARG_MAX(value, key) (MIN_BY/MAX_BY): the value of the row with the
// least (greatest) key; rows whose value or key is NULL are skipped (DuckDB's arg_min).
// Among rows that tie on the key the least value wins, so the answer does not depend on
// the order rows arrive in. The CPU keeps it; the GPU has no state of two arguments (the
// planner declines: no device final).
#include "compiler/common/error.h"
#include "compiler/common/value_ops.h"
#include "compiler/functions/aggregate_entries.h"

namespace tally::aggregates {

namespace {

// Whether (key, v) replaces the pair kept so far: a better key, or the same key and a
// lesser value.
template <int Sign>
bool wins(const HostAggState& s, const Value& v, const Value& key, const AggContext& ctx) {
  if (s.key.null) return true;
  const int c = compare_values(key, s.key, ctx.key, ctx.strings);
  if (c != 0) return Sign < 0 ? c < 0 : c > 0;
  return compare_values(v, s.extreme, ctx.arg, ctx.strings) < 0;
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
StateInfo arg_state(StateKind kind, const char* name) {
  StateInfo s{kind,  name,   {FieldKind::Count}, SumGrowth::None, true, update, combine<Sign>,
              final, nullptr};
  s.update_pair = update_pair<Sign>;
  return s;
}

}  // namespace

const StateInfo kArgMinState = arg_state<-1>(StateKind::ArgMin, "ArgMin");
const StateInfo kArgMaxState = arg_state<1>(StateKind::ArgMax, "ArgMax");

// The kept row is the same with or without DISTINCT.
const AggregateFunction kArgMin = {
    AggKind::ArgMin, "ARG_MIN",  {"ARG_MIN", "MIN_BY"}, DistinctRule::Ignored, typing,
    min_state,       typing_pair};
const AggregateFunction kArgMax = {
    AggKind::ArgMax, "ARG_MAX",  {"ARG_MAX", "MAX_BY"}, DistinctRule::Ignored, typing,
    max_state,       typing_pair};

}  // namespace tally::aggregates
