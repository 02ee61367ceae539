// The state cells an emit_states plan's Finalizer writes (compiler/plan/partial_states.h) as
// the CPU engine's partial states: the same HostAggState a CPU run over that part's rows would
// hold, so that parts from GPUs and CPUs combine (combine_partial_groups) and finish
// (finish_partial_groups) as one run over the whole table. No CUDA here: the caller downloads
// the cells and decodes the keys.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "compiler/plan/gpu_plan.h"
#include "runtime/cpu/partial_groups.h"

namespace tally {

// A MIN/MAX of a string's cell (a dictionary code of plan.layout.aggregate_dictionary[aggregate],
// or an id of the string domain GpuProgram::aggregate_domains[aggregate]) as a string id of the
// heap handed to partial_groups_from_cells.
using StateStringId = std::function<int64_t(size_t aggregate, int64_t code)>;

// Aggregate `a`'s host state from one group's state cells (`cells`: its first), as
// partial_groups_from_cells decodes each group's.
HostAggState group_state(const StateLayout& layout, const int128* cells, const AggregateCall& call,
                         size_t a, const StateStringId& string_id);

// The downloaded groups of one part: `keys[g]` the decoded key Values of group g (VARCHAR keys
// as ids of `strings`), `cells` group-major, state_cell_count(plan) cells a group. Throws
// Error(Unsupported) with why_states_do_not_combine's reason for a query whose states do not
// combine.
PartialGroups partial_groups_from_cells(const BoundSelect& query, const GpuPlan& plan,
                                        std::vector<std::vector<Value>> keys, const int128* cells,
                                        std::shared_ptr<StringHeap> strings,
                                        const StateStringId& string_id);

}  // namespace tally
