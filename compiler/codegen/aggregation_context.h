// What every part of an aggregation's generated kernels shares: the query, its plan and
// statistics, the program being written, the argument block, the names, and the expression
// emitter. The parts: the Scan (scan_kernel.cpp), a row's group slot (group_slot.cpp), the
// merges into the states (state_merges.cpp) and the Finalizer (finalizer.cpp), assembled one
// kernel per launch by aggregation_kernels.cpp.
#pragma once

#include <string>
#include <vector>

#include "compiler/codegen/cuda_expr.h"
#include "compiler/codegen/gpu_program.h"
#include "compiler/codegen/program_names.h"
#include "compiler/codegen/symbol_table.h"
#include "compiler/plan/count_sum_packing.h"

namespace tally {

struct AggregationContext {
  AggregationContext(const BoundSelect& query, const GpuPlan& plan,
                     const std::vector<ColumnStats>& stats, GpuProgram& program);

  const std::vector<StateField>& state_fields() const { return plan.layout.fields; }
  // Whether the Finalizer is launched as the Scan's programmatic dependent.
  bool finalize_is_dependent() const;
  // The row count's and the packed sum's own fields: only a block cache's flush adds to them
  // (the global merges add to the packed word), so without one Init and the Finalizer skip them.
  bool packed_fields_unused() const { return packing.packs() && plan.block_cache_slots == 0; }
  bool in_packed_word(size_t field) const {
    return packing.packs() && (field == 0 || field == static_cast<size_t>(packing.field));
  }

  const BoundSelect& query;
  const GpuPlan& plan;
  const std::vector<ColumnStats>& stats;
  GpuProgram& program;
  SymbolTable symbols;
  CudaArgs args;
  // What every kernel takes from the argument block beside its fixed arguments: the state
  // arrays, and the lookups and parameters the expressions use (the emitter adds them).
  std::string declarations;
  std::vector<ColumnNames> columns;
  std::vector<std::string> fields;  // per state field: its array
  // The row count packed with a sum in the global tables: its words and carries (declared
  // only where packing.packs()).
  CountSumPacking packing;
  std::string packed_counts = "packed_counts", pack_carries = "pack_carries";
  // Per state field: the Finalizer's local holding a packed field's total ("" for the rest).
  std::vector<std::string> packed_totals;
  CudaExprEmitter emitter;
  // GpuPlan::having_on_device(): the predicate's statements and where its value is
  // (compiler/codegen/finalizer.h emit_device_having).
  std::string having_code;
  CudaOperand having;
};

}  // namespace tally
