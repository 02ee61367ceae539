#include "runtime/cpu/agg_state.h"

#include <bit>
#include <cmath>

#include "compiler/common/interval_value.h"
#include "compiler/common/value_ops.h"

namespace tally {

namespace {

// Distinct values are kept as 128-bit keys: integers and ids widened, DECIMAL as is,
// floating point by bit pattern (with -0.0 folded into 0.0 and one NaN), INTERVAL as its
// span (so '1 day' and '24 hours' count once; the value read back is the span's days and
// micros).
int128 distinct_key(const Value& v, const Type& t) {
  if (t.is_interval()) return hash_payload(v, t).d;
  if (t.is_exact128()) return v.d;
  if (t.is_float()) {
    double f = v.f == 0.0 ? 0.0 : (std::isnan(v.f) ? std::nan("") : v.f);
    return static_cast<int128>(std::bit_cast<uint64_t>(f));
  }
  return v.i;
}

Value from_distinct_key(int128 k, const Type& t) {
  if (t.is_interval()) return interval_value(interval_of_span(k));
  if (t.is_exact128()) return Value::from_decimal(k);
  if (t.is_float()) return Value::from_double(std::bit_cast<double>(static_cast<uint64_t>(k)));
  return Value::from_int(static_cast<int64_t>(k));
}

}  // namespace

std::vector<AggSpec> make_agg_specs(const BoundSelect& query, StringHeap* strings) {
  std::vector<AggSpec> specs;
  for (const auto& a : query.aggregates) {
    Type arg = a.arg ? a.arg->type : Type::bigint();
    AggContext context;
    context.arg = arg;
    context.result = a.type;
    context.strings = strings;
    if (a.key) context.key = a.key->type;
    context.fraction = a.fraction;
    context.descending = a.descending;
    context.separator = a.separator;
    for (const auto& o : a.order)
      context.order.push_back({o.expr->type, o.descending, o.nulls_first});
    context.results = strings;
    specs.push_back({a.kind, a.distinct, &aggregate_state(a.kind, arg), context});
  }
  return specs;
}

void agg_merge(AggState& s, const AggSpec& spec, const Value& v, const Value& key,
               const Value* sort_keys) {
  if (spec.kind == AggKind::CountStar) {
    ++s.plain.count;
    return;
  }
  // Aggregates skip NULLs; those of two arguments (ARG_MIN(value, key)) a NULL key too.
  if (v.null) return;
  if (spec.state->update_pair) {
    if (!key.null) spec.state->update_pair(s.plain, v, key, spec.context);
    return;
  }
  if (spec.distinct) {
    if (!s.distinct) s.distinct = std::make_unique<std::unordered_set<int128, Int128Hash>>();
    s.distinct->insert(distinct_key(v, spec.context.arg));
    return;
  }
  spec.state->update(s.plain, v, spec.context);
  // The value's sort keys sit beside it, in the list the holistic state just grew.
  if (sort_keys) {
    s.plain.sort_keys.insert(s.plain.sort_keys.end(), sort_keys,
                             sort_keys + spec.context.order.size());
  }
}

void agg_combine(AggState& into, AggState& from, const AggSpec& spec) {
  if (spec.distinct) {
    if (!from.distinct) return;
    if (!into.distinct) {
      into.distinct = std::move(from.distinct);
    } else {
      into.distinct->insert(from.distinct->begin(), from.distinct->end());
    }
    return;
  }
  spec.state->combine(into.plain, from.plain, spec.context);
}

Value agg_final(const AggState& s, const AggSpec& spec) {
  if (!spec.distinct) return spec.state->final(s.plain, spec.context);
  // Each distinct value reaches the plain state once.
  HostAggState folded;
  if (s.distinct) {
    for (int128 k : *s.distinct) {
      spec.state->update(folded, from_distinct_key(k, spec.context.arg), spec.context);
    }
  }
  return spec.state->final(folded, spec.context);
}

}  // namespace tally
