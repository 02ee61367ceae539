// How generated kernels read scan columns: one decode per column, shared by the
// aggregation scan (compiler/codegen/aggregation_kernels.cpp) and the projection
// (compiler/codegen/projection_kernels.cpp). Each gives a C expression over `row` from a C
// expression for the column's pointer.
#pragma once

#include <string>
#include <vector>

#include "compiler/codegen/cuda_expr.h"
#include "compiler/plan/gpu_plan.h"

namespace tally {

// The stored payload: the 64-bit bit-packed decoder through `data` (a const u64*), or a
// plain load through `data` (typed as plain_storage_type).
std::string column_payload(const ColumnStats& s, const std::string& data);

// The column's value from its payload: BOOLEAN as a comparison with 0, any other type cast
// to `value_type` (CudaExprEmitter::column_type).
std::string column_value(const Type& t, const std::string& value_type, const std::string& payload);

// Its NULL flag: "false" for a column without NULLs, else its bit through `validity`.
std::string column_null(const ColumnStats& s, const std::string& validity);

// Registers for the decoded columns of a lane's two rows (`held[2]`, `held_null[2]` of
// ColumnNames): of the column's type, or i32 for the columns in `held_i32` (decoded as i32,
// widened at use).
std::string decoded_declarations(const std::vector<int>& columns,
                                 const std::vector<ColumnNames>& names,
                                 const CudaExprEmitter& emitter,
                                 const std::vector<int>& held_i32 = {});

// The row `half`'s value and NULL flag of each column (`value`, `null` of ColumnNames).
std::string decoded_row(const std::vector<int>& columns, const std::vector<ColumnNames>& names,
                        const CudaExprEmitter& emitter);

}  // namespace tally
