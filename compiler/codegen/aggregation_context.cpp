#include "compiler/codegen/aggregation_context.h"

namespace tally {

namespace {

// The generated kernels' own variables: no column, field or temporary takes these names.
constexpr const char* kKernelNames[] = {
    "rows",
    "status",
    "out_count",
    "table",
    "lane",
    "walk_rows",
    "warps",
    "first_block",
    "block",
    "chunk",
    "pair",
    "half",
    "index",
    "row",
    "in_block",
    "slot",
    "group",
    "key",
    "key_value",
    "encoded",
    "bits",
    "digit",
    "null",
    "sync",
    "distinct",
    "mr",
    "out_keys",
    "out_key_nulls",
    "out_values",
    "out_value_nulls",
    "thread_cells",
    "block_cells",
    "block_sum",
    "group_keys",
    "group_key_nulls",
    "group_values",
    "group_value_nulls",
    "packed_counts",
    "pack_carries",
    "taken",
};

SymbolTable kernel_symbols() {
  SymbolTable symbols;
  for (const char* name : kKernelNames) symbols.reserve(name);
  return symbols;
}

}  // namespace

AggregationContext::AggregationContext(const BoundSelect& query, const GpuPlan& plan,
                                       const std::vector<ColumnStats>& stats, GpuProgram& program)
    : query(query),
      plan(plan),
      stats(stats),
      program(program),
      symbols(kernel_symbols()),
      columns(name_columns(query, symbols)),
      fields(name_fields(plan.layout, query, symbols)),
      packing(count_sum_packing(plan, query, stats)),
      emitter(query, stats, program.lookups, args, declarations, symbols, columns,
              &program.string_domains) {
  packed_totals.resize(fields.size());
  for (size_t f = 0; f < fields.size(); ++f) {
    if (in_packed_word(f)) packed_totals[f] = symbols.fresh(fields[f] + "_total");
  }
}

bool AggregationContext::finalize_is_dependent() const {
  for (const Launch& l : plan.launches) {
    if (l.kernel == KernelId::Finalize) return l.dependent;
  }
  return false;
}

}  // namespace tally
