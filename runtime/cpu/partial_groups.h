// Partial aggregation: an aggregated query's states per group before the final step, for
// inputs split across engines or machines. The CPU engine runs one part of the input to
// PartialGroups (run_cpu_partial in cpu_engine.h); parts combine with the aggregates' own
// combine steps (exact: 128-bit sums, counts, variance sums, DISTINCT sets); the merged
// groups finish as one run over the whole input would (finals, HAVING, outputs, ORDER BY,
// LIMIT). The library's partial-state API (api/partial_result.cpp) serialises them.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "compiler/ir/query.h"
#include "runtime/cpu/agg_state.h"
#include "runtime/result/result.h"

namespace tally {

struct PartialGroups {
  std::vector<std::vector<Value>> keys;       // per group: the group key values
  std::vector<std::vector<AggState>> states;  // per group: one state per aggregate
  // The heap the VARCHAR values of keys and states (MIN/MAX, DISTINCT) are ids into.
  std::shared_ptr<StringHeap> strings = std::make_shared<StringHeap>();
};

// Bytes per group key in encode_group_key's encoding.
inline constexpr size_t kGroupKeySlotBytes = 17;  // NULL flag + 16 payload bytes

// The group keys as fixed-width bytes (keys.size() * kGroupKeySlotBytes) that are equal
// exactly when the keys are one group (NULL keys one group, 0.0 and -0.0 one, NaNs one).
void encode_group_key(const std::vector<Value>& keys, const BoundSelect& query, uint8_t* out);

// Calls `visit` with every VARCHAR id in `groups` (keys, MIN/MAX values, DISTINCT sets)
// and stores what it returns in its place.
void map_string_ids(const BoundSelect& query, PartialGroups& groups,
                    const std::function<int64_t(int64_t)>& visit);

// Adds the groups of `parts` into `into` (combining the states of groups both have), in
// order; their strings are interned into `into`'s heap. The parts are left empty.
void combine_partial_groups(const BoundSelect& query, PartialGroups& into,
                            std::span<PartialGroups> parts);

// The result a run over the whole input gives: finals (an ungrouped query over no rows
// still has its one row), HAVING, outputs, DISTINCT, ORDER BY, LIMIT. `parameters`: the
// values of the query's `?`s, converted to their types.
Result finish_partial_groups(const BoundSelect& query, PartialGroups groups,
                             const std::vector<Value>& parameters = {});

}  // namespace tally
