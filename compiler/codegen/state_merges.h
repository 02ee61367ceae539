// How one pass over the rows merges a row into the aggregates' states: the row's inputs
// (each aggregate's argument once, DISTINCT values only when new to their group, squares
// for variances), then one merge per state field into a thread's own accumulator (a
// register or its cell of the block's shared table, ThreadPrivate), into the block's shared
// table with a shared atomic (Block; a packed table's narrow sums share one 64-bit word and
// one atomic: compiler/plan/thread_tables.h), or straight into the global state with an
// atomic, through the block's cache of hot groups where the plan has one; and, for thread and
// block tables and the cache, their declaration and the flush that merges them into the
// global states once a block.
#pragma once

#include <string>
#include <vector>

#include "compiler/codegen/aggregation_context.h"
#include "compiler/codegen/pass_terms.h"

namespace tally {

class StateMerges {
 public:
  // `m2_pass`: the second pass of DOUBLE variances, which merges only its own fields after the
  // first pass has finished every group's count and sum: into the same per-thread tables
  // (ThreadPrivate), else with global atomics.
  StateMerges(AggregationContext& ctx, bool m2_pass);

  // Whether this pass keeps per-thread tables, and whether they live in shared memory.
  bool thread_tables() const { return thread_tables_; }
  bool in_shared() const { return in_shared_; }
  // Whether this pass merges into a block's shared table (the Block strategy).
  bool block_table() const { return block_table_; }
  // Whether this pass keeps the groups a block hits first in a shared cache (Direct and
  // Hash with GpuPlan::block_cache_slots), the other rows merging into the global states.
  bool block_cache() const { return block_cache_; }
  // Whether rows merge on chip and reach the global states only in the flush.
  bool merges_on_chip() const { return thread_tables_ || block_table_; }

  // Before the walk: the thread tables (their identities) and the DISTINCT set.
  std::string declarations();
  // Per row, after the slot is known: the inputs, then every merge of this pass.
  std::string merge_row();
  // After the walk: the thread tables into the global states.
  std::string flush();

  // The atomic merge of `value` into field f's global state at `target`.
  std::string atomic_merge(size_t f, const std::string& target, const std::string& value) const;

 private:
  using Input = RowInput;
  // One field's merge for a row: `value` unless `null` (empty: never skipped).
  struct FieldMerge {
    size_t field;
    std::string value, null;
  };
  std::vector<Input> aggregate_inputs(std::string& code);
  std::vector<FieldMerge> field_merges(const std::vector<Input>& inputs) const;
  std::string merge_fields(const std::vector<Input>& inputs, const std::string& slot_cells,
                           int register_slot);
  std::string merge_one(size_t f, const std::string& value, const std::string& slot_cells,
                        int register_slot) const;
  std::string thread_cell(size_t f, const std::string& slot) const;
  std::string packed_cell(uint32_t w, const std::string& slot) const;
  std::string cell_type(size_t f) const;
  const PackedCells& packing() const;
  bool packed(size_t f) const;
  bool in_pass(size_t f) const;
  std::string seen_insert(size_t a, const std::string& value) const;
  std::string block_cell(size_t f, const std::string& index) const;
  std::string shared_table_declarations();
  std::string flush_shared_tables();
  std::string flush_registers();
  std::string block_table_declarations();
  std::string flush_block_table();
  std::string flush_replicas();
  uint32_t replicas() const;
  std::string flush_cells(const std::string& skip, const std::string& global_slot);
  uint64_t table_entries() const;
  std::string slice_first_declaration();
  std::string in_slice(const std::string& merges);
  bool sliced() const;  // a Block plan's Scan runs once per slice of its slots
  std::string block_cell_type(size_t f) const;
  std::string flush_value(size_t f, uint64_t slot, uint32_t part, const std::string& type) const;
  std::string block_sum_type(size_t f) const;
  std::string block_fold(size_t f, uint64_t slot, const std::string& type) const;

  AggregationContext& ctx_;
  const bool m2_pass_;
  const bool thread_tables_;
  const bool in_shared_;
  const bool block_table_;
  const bool block_cache_;
  // A Direct plan's Scan runs once per slice of its global table (GpuPlan::scan_slices), so
  // that each pass's slots stay in L2; the second pass of variances reads every row once.
  const bool global_slices_;
  std::string cache_tags_, cache_;        // the block cache's tag array and its table
  std::string slice_first_, slice_cell_;  // a sliced pass's first slot; a row's cell in it
  std::vector<std::string> hints_;        // per aggregate: what its temporaries are called
  PassTerms terms_;                       // squares and deviations a row merges
  std::vector<std::string> cells_;        // per field: this thread's shared cells
  std::vector<std::string> cell_arrays_;  // per field: the block's shared cells
  std::vector<std::string> packed_cells_, packed_arrays_;  // per packed word
};

}  // namespace tally
