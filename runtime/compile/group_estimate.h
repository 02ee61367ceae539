// How many groups a GROUP BY will make, estimated from a random sample of the table's rows
// (the filter and the keys evaluated by the CPU evaluator), so that a hash table is sized
// for its groups rather than for its rows: a table of 2^27 rows and 1,000 groups then gets
// 2,048 slots that stay in L2, not 2^28 slots of device memory to clear and finalize.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/common/string_heap.h"
#include "compiler/ir/query.h"
#include "runtime/storage/table.h"

namespace tally {

struct GroupEstimate {
  uint64_t groups = 0;    // the estimate for the whole table
  uint64_t sampled = 0;   // rows drawn
  uint64_t passed = 0;    // of which the filter kept
  uint64_t distinct = 0;  // distinct keys among those
  uint64_t hottest = 0;   // the most of those one key had
};

// The larger of two estimators over `sample_rows` rows drawn at random (a fixed seed, so
// a plan is reproducible): Chao's (distinct + f1^2 / 2 f2, f1 and f2 the keys seen once
// and twice), close for uniform keys, and Charikar et al.'s GEE (the keys seen once stand
// for sqrt(N / n) keys each), whose ratio error is bounded. Both can fall short on skewed
// keys: the hash table's grow-and-rerun covers an underestimate. Rows whose filter or keys
// raise an error are skipped (the query itself reports those).
// Row `row`'s scan columns as the CPU evaluator reads them (strings interned into `strings`);
// with `only`, just the columns it marks (the others stay NULL).
void read_scan_row(const BoundSelect& query, const Table& table, size_t row, StringHeap& strings,
                   std::vector<Value>& values, const std::vector<bool>* only = nullptr);

// The scan columns the filter and the group keys read, for read_scan_row's `only`.
std::vector<bool> key_and_filter_columns(const BoundSelect& query);

GroupEstimate estimate_groups(const BoundSelect& query, const Table& table,
                              const std::vector<Value>& parameters, uint64_t sample_rows);

}  // namespace tally
