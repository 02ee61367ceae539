// The Finalizer kernel's body: every occupied slot takes an output row (a warp claims the
// rows of several slots a lane at once: templates/tally_output_rows.cuh), its keys are decoded
// from the slot (or the hash table's key), and each aggregate's final is computed from its
// state fields by the aggregate table's device final (templates/tally_finals.cuh
// holds what the host computes the same way). A plan with emit_states writes each state field
// instead of the finals (compiler/plan/partial_states.h says where). With HAVING on the device
// a group's cells go to locals first and only a group the predicate keeps takes a row.
#pragma once

#include <string>

#include "compiler/codegen/aggregation_context.h"

namespace tally {

std::string finalize_body(AggregationContext& ctx);

// With GpuPlan::having_on_device(): emits HAVING over the group's cells into ctx.having_code
// (before the kernels' common preamble is written: the predicate may declare parameters).
void emit_device_having(AggregationContext& ctx);

// The loop over state slots of Init: over the grid, or over one block
// (the Scan's first block, where it sets the states). The slot is `slot`.
std::string state_slot_loop_head(const GpuPlan& plan, bool one_block);

}  // namespace tally
