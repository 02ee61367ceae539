// The names generated kernels give the query's columns, state fields and aggregates, made
// from the query's own names so that --emit-cuda reads next to --explain.
#pragma once

#include <string>
#include <vector>

#include "compiler/codegen/symbol_table.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

// The variables one scan column is read through.
struct ColumnNames {
  std::string value;  // the row's value; `<value>_null` its NULL flag
  std::string null;
  std::string held;  // a lane's two rows, decoded before use (held[2], held_null[2])
  std::string held_null;
  std::string words;    // a bit-packed column's lane words
  std::string values;   // a plain (or row-packed) column's values
  std::string valid;    // its validity bitmap
  std::string chunk_a;  // the two LaneChunk buffers of a chunked read
  std::string chunk_b;
};

std::vector<ColumnNames> name_columns(const BoundSelect& query, SymbolTable& symbols);

// Per aggregate, a hint: the output's name where an output is the aggregate itself
// ("sum_qty"), else its text ("sum_l_quantity"). Not unique; names are made from it.
std::vector<std::string> aggregate_hints(const BoundSelect& query);

// Per state field, its array's name: "group_rows" for field 0, else the first aggregate
// that keeps it, plus the field when that aggregate keeps more than one ("avg_x_count").
std::vector<std::string> name_fields(const StateLayout& layout, const BoundSelect& query,
                                     SymbolTable& symbols);

}  // namespace tally
