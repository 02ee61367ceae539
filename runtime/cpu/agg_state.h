// Aggregate states on the CPU: the table's host steps (compiler/functions/), plus the set
// of values a DISTINCT aggregate collects before its values reach the plain state.
#pragma once

#include <memory>
#include <unordered_set>
#include <vector>

#include "compiler/common/string_heap.h"
#include "compiler/ir/query.h"

namespace tally {

struct AggSpec {
  AggKind kind;
  bool distinct;
  const StateInfo* state;
  AggContext context;  // argument type (BIGINT for COUNT(*)), result type, strings
};

// `strings`: the heap the query's string ids index, where STRING_AGG interns its results.
std::vector<AggSpec> make_agg_specs(const BoundSelect& query, StringHeap* strings);

struct Int128Hash {
  size_t operator()(int128 v) const {
    uint64_t lo = static_cast<uint64_t>(v), hi = static_cast<uint64_t>(v >> 64);
    uint64_t h = lo * 0x9E3779B97F4A7C15ull ^ (hi + 0x632BE59BD9B4E019ull + (lo << 6));
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

struct AggState {
  HostAggState plain;
  std::unique_ptr<std::unordered_set<int128, Int128Hash>> distinct;
};

// `key`: the second argument's value, for aggregates of two arguments (ARG_MIN/ARG_MAX);
// `sort_keys`: the values of the ORDER BY inside the call (spec.context.order.size()).
void agg_merge(AggState& state, const AggSpec& spec, const Value& v, const Value& key = Value(),
               const Value* sort_keys = nullptr);
void agg_combine(AggState& into, AggState& from, const AggSpec& spec);
// Throws Error(Execution) when the result does not fit its type (SUM of BIGINT, ...).
Value agg_final(const AggState& state, const AggSpec& spec);

}  // namespace tally
