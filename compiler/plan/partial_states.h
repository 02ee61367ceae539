// GPU states that leave the device for the host (GpuPlan::emit_states): parts of one table run
// the same plan apart (several GPUs, or the GPU beside the CPU engine), each part's Finalizer
// writes every state field of every occupied slot, and the host combines them exactly
// (runtime/gpu/state_cells.h turns the cells into the CPU engine's partial states).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "compiler/ir/query.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

// Cells per group the Finalizer of an emit_states plan writes: one per state field of
// plan.layout.fields (the rows-per-group counter first), 16 bytes each, out_values[group * F +
// f]. u64 and i64 fields widened to i128, f64 fields as their bits in the low word.
inline uint64_t state_cell_count(const GpuPlan& plan) { return plan.layout.fields.size(); }

// 16-byte cells per group of out_values (and bytes per group of out_value_nulls): the state
// cells under emit_states, else one final per aggregate (at least one).
inline uint64_t output_value_cells(const GpuPlan& plan, uint64_t aggregates) {
  if (plan.emit_states) return state_cell_count(plan);
  return aggregates > 0 ? aggregates : 1;
}

// Why the states of `query`'s parts under `plan` cannot combine exactly on the host (the
// sentence names the aggregate), or nothing when they can.
std::optional<std::string> why_states_do_not_combine(const BoundSelect& query, const GpuPlan& plan);

}  // namespace tally
