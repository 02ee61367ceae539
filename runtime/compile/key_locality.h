// Where a Direct plan's merges land: how many of its slots the rows a Scan has in flight
// together touch, and how often the keys repeat, sampled from a few windows of consecutive
// rows (the filter and keys evaluated by the CPU evaluator), so that sorted, clustered and
// skewed keys are told from scattered ones before the planner slices a table larger than L2
// (compiler/plan/l2_slices.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "compiler/ir/query.h"
#include "compiler/plan/gpu_plan.h"
#include "compiler/plan/l2_slices.h"
#include "runtime/storage/table.h"

namespace tally {

// window_slots: the widest product of the keys' digit spans over windows of `window_rows`
// consecutive rows (at most plan.slots); the distinct keys of all windows' samples. Nullopt
// where a key is not an integer-like value the sample can place (a dictionary-coded string:
// the CPU evaluator sees its text, not its code).
std::optional<KeyLocality> sample_key_locality(const BoundSelect& query, const Table& table,
                                               const GpuPlan& plan,
                                               const std::vector<Value>& parameters,
                                               uint64_t window_rows = kRowsInFlight);

}  // namespace tally
