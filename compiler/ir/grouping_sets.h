// GROUPING SETS / ROLLUP / CUBE as one query per set: each runs on either engine as an
// ordinary GROUP BY, and the caller unions their rows and finishes them (ORDER BY,
// DISTINCT, LIMIT) as the whole query says. Or, on the GPU, as one pass over the rows that
// merges each row into one group per set: the set id is one more group key.
#pragma once

#include <vector>

#include "compiler/ir/query.h"

namespace tally {

// One query per grouping set of `query`, in set order: the set's keys only, the other
// keys NULL in the outputs and HAVING, GROUPING() a constant; every output visible (the
// hidden ones are sort keys) and no ORDER BY, DISTINCT, LIMIT or OFFSET.
std::vector<BoundSelect> split_grouping_sets(const BoundSelect& query);

// GROUPING(keys)'s value in the set `mask`: bit (n - 1 - i) set when argument i is not
// grouped (PostgreSQL's order: the last argument is bit 0).
int64_t grouping_value(const Expr& grouping, uint64_t mask);

// The query as one GROUP BY whose last key is the set id (ExprKind::GroupingSetId) and whose
// grouping_sets say which keys each set keeps: a row merges into one group per set, the keys
// a set drops held NULL, so (set id, keys) is unique and a real NULL key is never a dropped
// one. Its outputs are the raw groups, every key (the set id last) then every aggregate;
// no HAVING, ORDER BY, DISTINCT or LIMIT. one_pass_set_groups reads them back per set.
BoundSelect one_pass_grouping_query(const BoundSelect& query);

// Whether `query` is such a one-pass query: its last key is the set id.
bool is_one_pass_grouping_query(const BoundSelect& query);

// The groups of one_pass_grouping_query's rows that belong to set `set`, as the keys of
// split_grouping_sets(query)[set] (the set's own keys, in order) and the aggregates.
struct SetGroups {
  std::vector<std::vector<Value>> keys;
  std::vector<std::vector<Value>> aggregates;
};
std::vector<SetGroups> one_pass_set_groups(const BoundSelect& query,
                                           const std::vector<std::vector<Value>>& rows);

}  // namespace tally
