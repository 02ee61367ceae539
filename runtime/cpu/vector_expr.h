// Expressions of the vectorized CPU path: an Expr tree compiled, once per query and worker,
// into a tree of typed batch operators. Each operator computes its whole batch column in
// one virtual call, over the rows of a selection. Operators for the hot shapes (columns,
// constants, integer / proven-64-bit DECIMAL / DOUBLE arithmetic, comparisons, AND/OR/NOT,
// CASE, COALESCE, the common casts) are typed loops; any other node is evaluated per row by
// the row evaluator on its children's batch values, so its meaning is the row path's by
// construction. Typed loops detect the rows whose result would raise an error (overflow,
// division by zero) and hand the first such row to the row evaluator, which raises the
// very error the row path raises.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/common/string_heap.h"
#include "compiler/ir/expr.h"
#include "compiler/plan/column_stats.h"
#include "runtime/cpu/vector_batch.h"

namespace tally {

// What compiling an expression reads. `columns` are the worker's decoded scan columns of
// the current batch (string columns hold dictionary codes); `code_to_id` maps a string
// column's codes to ids in `strings`.
struct VecEnv {
  const std::vector<ColumnStats>* stats = nullptr;
  const std::vector<Value>* parameters = nullptr;
  StringHeap* strings = nullptr;
  std::vector<Vec>* columns = nullptr;
  const std::vector<std::vector<int64_t>>* code_to_id = nullptr;
};

class VecOp {
 public:
  virtual ~VecOp() = default;
  // Computes out() for the rows of `sel`; throws Error(Execution) as the row path would.
  virtual void eval(const Sel& sel) = 0;
  const Vec& out() const { return *out_; }

 protected:
  Vec* out_ = nullptr;
};

using VecOpPtr = std::unique_ptr<VecOp>;

// Why the vector path cannot evaluate `e` (nullopt: it can).
std::optional<std::string> vector_unsupported(const Expr& e);

// The representation the vector path gives the values of `e`.
Phys vector_phys(const Expr& e, const VecEnv& env);

VecOpPtr compile_vector(const Expr& e, const VecEnv& env);

// Whether `e` may be NULL on some row (false only where that is certain).
bool may_be_null(const Expr& e, const std::vector<ColumnStats>& stats,
                 const std::vector<Value>& parameters);

}  // namespace tally
