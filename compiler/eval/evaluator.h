// Row-at-a-time evaluation of the expression IR with SQL semantics: three-valued logic,
// exact DECIMAL arithmetic, checked integer overflow, division by zero as an error.
// The CPU engine runs queries with it and the binder folds constants with it, so there
// is one definition of what an expression means on the host.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "compiler/common/string_heap.h"
#include "compiler/common/value_ops.h"
#include "compiler/ir/expr.h"

namespace tally {

struct EvalContext {
  const Value* columns = nullptr;     // ColumnRef values of the current row
  const Value* parameters = nullptr;  // bound parameter values
  size_t parameter_count = 0;
  const Value* keys = nullptr;        // GroupKeyRef values of the current group
  const Value* aggregates = nullptr;  // AggregateRef finals of the current group
  StringHeap* strings = nullptr;      // required when strings are involved
};

// Throws Error(Execution) for division by zero, overflow and failed casts.
Value evaluate(const Expr& e, const EvalContext& ctx);

// WHERE/HAVING: true only when the value is non-NULL and true.
inline bool is_true(const Value& v) { return !v.null && v.i != 0; }

// Converts a value between types with SQL cast rules. Throws Error(Execution) when the
// value does not fit or a string does not parse.
Value cast_value(const Value& v, const Type& from, const Type& to, StringHeap* strings);

// A string CAST to CHAR(n)/VARCHAR(n): CHAR drops trailing spaces, and a value longer than
// n characters (UTF-8) is cut to n.
std::string_view cut_string(std::string_view s, const Type& type);

// A string as INSERT and COPY store it in a CHAR(n)/VARCHAR(n) column (PostgreSQL's rule):
// as cut_string, but cutting anything other than spaces makes the value too long (nullopt).
std::optional<std::string_view> fit_string(std::string_view s, const Type& type);

// Replaces constant subtrees by Constant nodes.
ExprPtr fold_constants(const ExprPtr& e);

// SQL LIKE with % and _ (no escape character).
bool like_match(std::string_view text, std::string_view pattern);

}  // namespace tally
