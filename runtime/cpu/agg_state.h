// Aggregate states on the CPU: init, merge one value, combine two states (thread-local
// tables are combined at the end), final. The state kinds and result types come from
// compiler/functions/aggregates.h, the table both engines read.
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
  AggStateKind state;
  Type arg;     // argument type (BIGINT placeholder for COUNT(*))
  Type result;  // final type
};

std::vector<AggSpec> make_agg_specs(const BoundSelect& query);

struct Int128Hash {
  size_t operator()(int128 v) const {
    uint64_t lo = static_cast<uint64_t>(v), hi = static_cast<uint64_t>(v >> 64);
    uint64_t h = lo * 0x9E3779B97F4A7C15ull ^ (hi + 0x632BE59BD9B4E019ull + (lo << 6));
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

struct AggState {
  int64_t count = 0;
  int128 sum = 0;
  int128 sumsq = 0;
  double fsum = 0;
  double fsumsq = 0;
  Value extreme;  // MIN/MAX so far; NULL until the first value
  std::unique_ptr<std::unordered_set<int128, Int128Hash>> distinct;
};

void agg_merge(AggState& state, const AggSpec& spec, const Value& v, const StringHeap* strings);
void agg_combine(AggState& into, AggState& from, const AggSpec& spec, const StringHeap* strings);
// Throws Error(Execution) when the result does not fit its type (SUM of BIGINT, ...).
Value agg_final(const AggState& state, const AggSpec& spec, const StringHeap* strings);

}  // namespace tally
