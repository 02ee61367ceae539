// A bound SELECT: the query IR that both engines run and the planner/codegen consume.
//
//   scan (columns of one table) -> filter -> group keys + aggregates -> having
//   -> outputs -> order by -> limit
//
// Expressions below the aggregation (filter, group keys, aggregate arguments, and the
// outputs of a non-aggregated query) reference scan columns with ColumnRef. Expressions
// above it (having, outputs of an aggregated query) reference GroupKeyRef and
// AggregateRef only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/functions/aggregate_function.h"
#include "compiler/ir/expr.h"

namespace tally {

struct ScanColumn {
  int table_column;  // index in the table's schema
  std::string name;
  Type type;
};

// One ORDER BY item inside an aggregate call.
struct AggregateOrder {
  ExprPtr expr;
  bool descending = false;
  bool nulls_first = false;
};

struct AggregateCall {
  AggKind kind;
  bool distinct = false;
  ExprPtr arg;  // null for COUNT(*)
  Type type;    // result type
  SqlText text;
  ExprPtr key;  // the second argument of ARG_MIN/ARG_MAX (MIN_BY/MAX_BY); null otherwise
  // The holistic aggregates' constants (AggContext has their meaning) and the ORDER BY
  // inside an order-sensitive call (STRING_AGG(x, ',' ORDER BY y)).
  double fraction = 0.5;
  bool descending = false;
  std::string separator = ",";
  std::vector<AggregateOrder> order;
};

struct OutputColumn {
  std::string name;
  ExprPtr expr;
};

struct SortKey {
  int output;  // index into outputs (may be a hidden output)
  bool descending = false;
  bool nulls_first = false;
  bool nulls_given = false;  // NULLS FIRST/LAST written: the default_null_order setting
                             // does not move it
};

struct BoundSelect {
  std::string table;  // empty: no FROM, the input is one row with no columns
  std::vector<ScanColumn> scan;
  ExprPtr filter;           // null: every row
  bool aggregated = false;  // GROUP BY or aggregates present (or DISTINCT rewritten)
  std::vector<ExprPtr> group_keys;
  // GROUPING SETS / ROLLUP / CUBE: one mask per set, bit k set when group key k is grouped
  // in it. Empty: one set of every key. compiler/ir/grouping_sets.h splits such a query.
  std::vector<uint64_t> grouping_sets;
  std::vector<AggregateCall> aggregates;
  ExprPtr having;                     // null: every group
  std::vector<OutputColumn> outputs;  // the first visible_outputs are the result columns;
                                      // the rest exist only to sort by
  size_t visible_outputs = 0;
  bool distinct_outputs = false;  // SELECT DISTINCT over an aggregated query: dedup the
                                  // visible outputs after HAVING
  std::vector<SortKey> order_by;
  // DISTINCT ON: output indices; of the rows equal on them, the first in ORDER BY order
  // stays (done on the host, after the sort).
  std::vector<int> distinct_on;
  // LIMIT/OFFSET: a constant, or a parameter index, or neither.
  std::optional<int64_t> limit;
  int limit_parameter = -1;
  int64_t offset = 0;
  int offset_parameter = -1;
  std::vector<Type> parameter_types;
  // Parameters from this one on are the statement's own constants, lifted out of the GPU's
  // program (compiler/plan/lifted_constants.h): never NULL. -1: none.
  int first_lifted_parameter = -1;
};

// --explain: the IR as readable text.
std::string explain(const BoundSelect& query);

}  // namespace tally
