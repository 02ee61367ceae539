// What the code generator hands the runtime: the CUDA source of one query, the order of
// its kernels' argument block, and the inputs the host computes for it (lookup tables,
// string domains). Where the states live and which kernels run are the plan's
// (compiler/plan/gpu_plan.h); the source holds one kernel per launch of the plan.
#pragma once

#include <string>
#include <vector>

#include "compiler/plan/gpu_plan.h"

namespace tally {

// Kernels take one argument, `const u64* args`: a block of 64-bit words the runtime fills
// in this order (pointers, counts and parameter values), so no struct layout has to agree
// between the host compiler and NVRTC.
enum class ArgKind {
  Rows,            // number of input rows
  Status,          // u32* status word
  OutCount,        // u64* number of output groups
  TableKeys,       // u64* hash-table keys (Hash strategy)
  ColumnData,      // index = scan column: plain values or packed words
  ColumnValidity,  // index = scan column: validity words (0 when no NULLs)
  LookupValues,    // index = lookup: 16-byte values per dictionary code (+1 for NULL), or
                   // per string-domain id (+ NULL), or one
  LookupNulls,     // index = lookup: one byte per code
  ParamWord,       // index = parameter, word = 0 (low) or 1 (high, DECIMAL only)
  StateField,      // index = field: its state array
  OutKeys,         // 16 bytes per (group, key)
  OutKeyNulls,     // 1 byte per (group, key)
  OutValues,       // 16 bytes per (group, aggregate): the finals; under emit_states per
                   // (group, state field) (compiler/plan/partial_states.h: output_value_cells)
  OutValueNulls,   // 1 byte per cell of OutValues
  DistinctSet,     // u64* the DISTINCT aggregates' set (templates/tally_distinct.cuh)
  DistinctBitmap,  // u32* the bitmaps of DISTINCT aggregates with bounded domains
  SliceFirst,      // the first slot of this Scan pass's slice (GpuPlan::scan_slices)
  // The row count packed with a sum (compiler/plan/count_sum_packing.h), per state slot:
  PackedCounts,  // u64 words: the count above bit 32, the sum's low bits below
  PackCarries,   // u32: the sum's carries into the count
  // A non-aggregated query (GpuPlan::projection, templates/tally_project.cuh):
  BlockCounts,     // u64 per block: rows that pass, by the count pass
  BlockOffsets,    // u64 per block: the exclusive scan of BlockCounts
  OutColumn,       // index = output: its dense values, ProjectedOutput::bytes each
  OutColumnNulls,  // index = output: one byte per row
};

struct ArgSlot {
  ArgKind kind;
  int index = -1;
  int word = 0;
};

// A subexpression over one dictionary column, computed on the host once per dictionary
// code with the CPU evaluator and read on the device by code: a string predicate becomes
// a predicate on codes.
//
// Computed strings (compiler/plan/string_domain.h) use the same tables: a string leaf's table
// holds ids into its domain (string_domain), and a predicate over a computed string is a
// table indexed by that string's domain ids (domain_input).
struct DictLookup {
  ExprPtr expr;
  int scan_column;         // the column whose codes index the table; -1: one entry, or see
                           // domain_input
  int string_domain = -1;  // >= 0: `expr` is VARCHAR; the table holds ids into this domain
  int domain_input = -1;   // >= 0: indexed by this domain's ids (its bound: NULL); `expr`
                           // reads the string as ColumnRef 0
};

// A query-local dictionary of every string one VARCHAR expression can produce; its leaves
// are the lookups whose string_domain names it. Ids are dense from 0, in string order.
struct StringDomain {
  ExprPtr expr;
  uint64_t bound = 0;  // ids are below this (the leaves' dictionary sizes, before dedup)
};

// One output of a non-aggregated query: a dense column of the passing rows' values (REAL
// and DOUBLE as their bit patterns, VARCHAR as dictionary codes) beside one NULL byte each.
struct ProjectedOutput {
  int bytes = 8;        // per value: 8, or 16 for a DECIMAL wider than 18 digits
  int dictionary = -1;  // the scan column whose dictionary decodes a VARCHAR output, or -1
};

struct GpuProgram {
  std::string source;
  std::vector<ArgSlot> args;
  std::vector<DictLookup> lookups;
  std::vector<ProjectedOutput> projected;  // per output of a non-aggregated query
  std::vector<StringDomain> string_domains;
  std::vector<int> key_domains;        // per group key: the domain decoding it, or -1
  std::vector<int> aggregate_domains;  // per aggregate: the domain decoding its final, or -1
  bool top_k = false;  // the source has tally_top_k (compiler/codegen/top_k_kernel.h)
};

// Generates the kernels. Throws Error(Unsupported) naming what the GPU path cannot run.
GpuProgram generate_cuda(const BoundSelect& query, const GpuPlan& plan,
                         const std::vector<ColumnStats>& stats);

// The kernels of a non-aggregated query (plan.projection): tally_scan_count, then
// tally_scan_write (compiler/codegen/projection_kernels.cpp). generate_cuda calls it for such
// plans.
GpuProgram generate_projection_cuda(const BoundSelect& query, const GpuPlan& plan,
                                    const std::vector<ColumnStats>& stats);

}  // namespace tally
