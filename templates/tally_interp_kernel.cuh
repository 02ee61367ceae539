// The interpreted tier's kernels: compiled once per device (runtime/gpu/interpreted_scan.h),
// they run any statement's row program (tally_interp.cuh). Groups go to the global hash
// table of tally_table_global.cuh keyed by the row's mixed-radix group number, or, where the
// keys' whole domain is small, to a block's table in shared memory indexed by that number and
// merged into the global table once per block; a statement without GROUP BY keeps its fields
// in each thread's registers and merges them into its block's cells once. Each state field is a
// 16-byte cell a slot, field-major: cells[f * slots + slot]. A DISTINCT aggregate's values go to
// one DISTINCT set (tally_distinct.cuh) tagged by group number and field, which the host reads back
// whole.
#pragma once

#include "tally_atomics.cuh"
#include "tally_distinct.cuh"
#include "tally_interp.cuh"
#include "tally_interp_limits.cuh"
#include "tally_table_global.cuh"
#include "tally_types.cuh"

namespace tally {

struct InterpTable {
  u64* keys;  // capacity + 1 words
  u64 capacity;
  u32* status;
  i128* cells;          // field_count * (capacity + 1)
  u64 slots;            // capacity + 1
  u64* distinct_words;  // 3 * distinct_capacity; none without DISTINCT aggregates
  u64 distinct_capacity;

  TALLY_DEV GlobalTableRef table() const {
    return GlobalTableRef{keys, capacity, global_probe_limit(capacity), status, nullptr};
  }
  TALLY_DEV DistinctSetRef distinct() const {
    return DistinctSetRef{distinct_words, distinct_capacity, status};
  }
};

// A DOUBLE field's cell holds the double in its low word.
TALLY_DEV void interp_merge(int op, i128* cell, i128 v) {
  const f64 d = tally_interp::float_of((i64)v);
  switch (op) {
    case tally_interp::kFieldSumFloat:
      atomic_add((f64*)cell, d);
      break;
    case tally_interp::kFieldMinFloat:
      atomic_min((f64*)cell, d);
      break;
    case tally_interp::kFieldMaxFloat:
      atomic_max((f64*)cell, d);
      break;
    case tally_interp::kFieldArgMin:
      atomic_min(cell, v);
      break;
    case tally_interp::kFieldArgMax:
      atomic_max(cell, v);
      break;
    case tally_interp::kFieldMin:
      atomic_min((i64*)cell, (i64)v);
      break;
    case tally_interp::kFieldMax:
      atomic_max((i64*)cell, (i64)v);
      break;
    default:
      atomic_add(cell, v);
  }
}

// Fields a thread keeps in registers for a statement without GROUP BY: each of its rows merges
// into them without an atomic, where every thread of a block merging into one shared cell
// serialised (a 64-bit add in shared memory is a compare-and-swap loop).
constexpr int kInterpRegisterFields = 8;

// Whether the program's one group merges in registers: few enough fields, none DISTINCT (so
// none unused either: only a DISTINCT aggregate's other fields are).
TALLY_DEV bool interp_fields_in_registers(const tally_interp::Program& p, u32 shared_groups) {
  if (shared_groups != 1 || p.field_count > kInterpRegisterFields) return false;
  for (int f = 0; f < p.field_count; ++f) {
    if (p.fields[f].op == tally_interp::kFieldDistinct) return false;
  }
  return true;
}

// A row of the one group into the thread's own cells (interp_fields_in_registers).
TALLY_DEV void interp_merge_row_in_registers(const tally_interp::Program& p, const i64* r,
                                             const bool* n, i128* mine) {
#pragma unroll
  for (int f = 0; f < kInterpRegisterFields; ++f) {
    if (f >= p.field_count) break;
    const tally_interp::Field field = p.fields[f];
    bool skip = false;
    const i128 v = tally_interp::field_input(field, r, n, &skip);
    if (!skip) mine[f] = tally_interp::merge_field_value(field.op, mine[f], v);
  }
}

// Merges the row's fields into slot `slot` of `cells` (field-major, `slots` a field), and
// its DISTINCT values into the set under its group number.
TALLY_DEV void interp_merge_row(const tally_interp::Program& p, const InterpTable& t, const i64* r,
                                const bool* n, i128* cells, u64 slots, u64 slot, u64 group) {
  for (int f = 0; f < p.field_count; ++f) {
    const tally_interp::Field field = p.fields[f];
    if (field.op == tally_interp::kFieldUnused) continue;
    bool skip = false;
    const i128 v = tally_interp::field_input(field, r, n, &skip);
    if (skip) continue;
    if (field.op == tally_interp::kFieldDistinct) {
      t.distinct().insert(group * tally_interp::kDistinctTags + (u64)f, v);
    } else {
      interp_merge(field.op, &cells[(u64)f * slots + slot], v);
    }
  }
}

extern "C" __global__ void __launch_bounds__(kInterpThreads)
    tally_interp_init(const InterpTable t, const tally_interp::Program p) {
  global_table_clear(t.table());
  for (u64 i = global_thread_index(); i < (u64)p.field_count * t.slots; i += grid_stride()) {
    t.cells[i] = tally_interp::field_initial(p.fields[i / t.slots].op);
  }
  for (u64 i = global_thread_index(); i < 3 * t.distinct_capacity; i += grid_stride()) {
    t.distinct_words[i] = 0;
  }
}

// `shared_groups` > 0: the keys' whole domain, held by each block in shared memory.
extern "C" __global__ void __launch_bounds__(kInterpThreads)
    tally_interp_scan(const InterpTable t, const tally_interp::Program p, u64 rows,
                      u32 shared_groups) {
  __shared__ __align__(16) i128 shared_cells[kInterpSharedCells];
  __shared__ bool shared_used[kInterpSharedSlots];
  if (shared_groups > 0) {
    for (u32 i = threadIdx.x; i < (u32)p.field_count * shared_groups; i += blockDim.x) {
      shared_cells[i] = tally_interp::field_initial(p.fields[i / shared_groups].op);
    }
    for (u32 i = threadIdx.x; i < shared_groups; i += blockDim.x) shared_used[i] = false;
    __syncthreads();
  }
  const GlobalTableRef table = t.table();
  i64 r[tally_interp::kMaxRegisters];
  bool n[tally_interp::kMaxRegisters], fault[tally_interp::kMaxRegisters];
  const bool in_registers = interp_fields_in_registers(p, shared_groups);
  i128 mine[kInterpRegisterFields];
#pragma unroll
  for (int f = 0; f < kInterpRegisterFields; ++f) {
    mine[f] = in_registers && f < p.field_count ? tally_interp::field_initial(p.fields[f].op) : 0;
  }
  bool mine_used = false;
  for (u64 row = global_thread_index(); row < rows; row += grid_stride()) {
    tally_interp::run_row(p, row, r, n, fault);
    if (tally_interp::row_faults(p, r, n, fault)) {  // the statement's own kernels raise the error
      raise_status(t.status, kStatusDivisionByZero);
      continue;  // not return: the block's threads meet at __syncthreads below
    }
    if (!tally_interp::row_passes(p, r, n)) continue;
    if (in_registers) {
      mine_used = true;
      interp_merge_row_in_registers(p, r, n, mine);
      continue;
    }
    const u64 group = tally_interp::row_group(p, r, n);
    if (shared_groups > 0) {
      shared_used[group] = true;
      interp_merge_row(p, t, r, n, shared_cells, shared_groups, group, group);
      continue;
    }
    const i64 slot = table.insert_or_find(group);
    if (slot < 0) return;  // the table is full: the host grows it and runs again
    interp_merge_row(p, t, r, n, t.cells, t.slots, (u64)slot, group);
  }
  if (shared_groups == 0) return;
  if (mine_used) {  // the thread's own cells, once, into its block's
    shared_used[0] = true;
#pragma unroll
    for (int f = 0; f < kInterpRegisterFields; ++f) {
      if (f >= p.field_count) break;
      interp_merge(p.fields[f].op, &shared_cells[f], mine[f]);
    }
  }
  __syncthreads();
  for (u32 g = threadIdx.x; g < shared_groups; g += blockDim.x) {
    if (!shared_used[g]) continue;
    const i64 slot = table.insert_or_find(g);
    if (slot < 0) return;
    for (int f = 0; f < p.field_count; ++f) {
      const int op = p.fields[f].op;
      if (op == tally_interp::kFieldDistinct || op == tally_interp::kFieldUnused) continue;
      const i128 v = shared_cells[(u32)f * shared_groups + g];
      interp_merge(op, &t.cells[(u64)f * t.slots + (u64)slot], v);
    }
  }
}

}  // namespace tally
