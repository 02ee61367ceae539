// The host-side end of every query, whichever engine aggregated it: HAVING and the SELECT
// expressions over each group's keys and aggregate finals, then DISTINCT, ORDER BY,
// OFFSET and LIMIT, and the visible columns of the Result.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "compiler/ir/query.h"
#include "runtime/result/result.h"

namespace tally {

struct GroupRows {
  std::vector<std::vector<Value>> keys;        // per group: group key values
  std::vector<std::vector<Value>> aggregates;  // per group: aggregate finals
};

// Writes group `group`'s keys and aggregate finals into `keys` and `aggregates` (one
// Value a key, one an aggregate): a large result read straight from its raw cells,
// without a Value per cell held for every group.
using GroupReader = std::function<void(size_t group, Value* keys, Value* aggregates)>;

// Evaluates HAVING and outputs for each group, in group order, on all cores for many
// groups; returns rows of all outputs (hidden too), typed as the outputs. `having_applied`:
// the groups are HAVING's survivors already (the GPU's Finalizer evaluated it).
ResultRows evaluate_group_outputs(const BoundSelect& query, const GroupRows& groups,
                                  const std::vector<Value>& parameters, StringHeap* strings);
ResultRows evaluate_group_outputs(const BoundSelect& query, size_t groups, const GroupReader& read,
                                  const std::vector<Value>& parameters, StringHeap* strings,
                                  bool having_applied = false);

// Empty rows with a column for each output of `query` (hidden ones too), of its type.
ResultRows output_rows(const BoundSelect& query);

// DISTINCT (when the query asks for it over aggregated outputs), ORDER BY, OFFSET, LIMIT,
// then drops hidden outputs. `rows` hold every output.
Result finish_result(const BoundSelect& query, ResultRows rows,
                     const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings);
Result finish_result(const BoundSelect& query, const std::vector<std::vector<Value>>& rows,
                     const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings);

// OFFSET + LIMIT of the query with its parameters (SIZE_MAX without a LIMIT): how many
// rows in ORDER BY order the result needs.
size_t rows_needed(const BoundSelect& query, const std::vector<Value>& parameters);

// For a query whose rows come out in input order (no aggregation, ORDER BY or DISTINCT)
// with a LIMIT: how many input-order rows the result needs (OFFSET + LIMIT), so that a scan
// may stop once it has them. Else nullopt.
std::optional<size_t> rows_needed_in_order(const BoundSelect& query,
                                           const std::vector<Value>& parameters);

}  // namespace tally
