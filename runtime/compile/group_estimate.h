// How many groups a GROUP BY will make, estimated from a random sample of the table's rows
// (the filter and the keys evaluated by the CPU evaluator), so that a hash table is sized
// for its groups rather than for its rows: a table of 2^27 rows and 1,000 groups then gets
// 2,048 slots that stay in L2, not 2^28 slots of device memory to clear and finalize.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "compiler/common/string_heap.h"
#include "compiler/ir/query.h"
#include "runtime/storage/table.h"

namespace tally {

struct GroupEstimate {
  uint64_t groups = 0;       // the estimate for the whole table
  uint64_t groups_high = 0;  // one that rarely falls short, which a hash table is sized for
  uint64_t sampled = 0;      // rows drawn
  uint64_t passed = 0;       // of which the filter kept
  uint64_t distinct = 0;     // distinct keys among those
  uint64_t hottest = 0;      // the most of those one key had
};

// A sample's keys: how many distinct, and how many seen once (f1) and twice (f2); and, where
// known, how many were seen each number of times (count -> keys).
struct KeyFrequencies {
  uint64_t distinct = 0, once = 0, twice = 0;
  std::map<uint64_t, uint64_t> profile;
};

// From the keys of `passed` sampled rows standing for `passing` rows: `groups`, the larger of
// Chao's estimate (distinct + f1^2 / 2 f2) and Charikar et al.'s GEE (the keys seen once stand
// for sqrt(N / n) keys each); `groups_high`, the same with f2 one standard deviation lower. f2
// is about Poisson, so where few keys repeat Chao's estimate is loose: 8 pairs among 8,192 rows
// of 2^23 keys (4 expected) estimated 3.7 M groups, and the table sized for them filled and ran
// twice (bench/RESULTS_groupby_sweep.md, session 41). Fewer than 1,024 passing rows whose keys
// never repeat size `groups_high` for every passing row. Both estimators fall far short on
// skewed keys, whose hot ones fill the sample: where the profile fails a chi-square test of
// equal frequencies, `groups_high` is Shlosser's estimate, made for skew (Haas et al., VLDB
// 1995), within 1 and 8 times Chao's high one.
struct GroupCounts {
  uint64_t groups = 0, groups_high = 0;
};
GroupCounts estimate_from_frequencies(const KeyFrequencies& keys, uint64_t passed, double passing);

// Row `row`'s scan columns as the CPU evaluator reads them (strings interned into `strings`);
// with `only`, just the columns it marks (the others stay NULL).
void read_scan_row(const BoundSelect& query, const Table& table, size_t row, StringHeap& strings,
                   std::vector<Value>& values, const std::vector<bool>* only = nullptr);

// The scan columns the filter and the group keys read, for read_scan_row's `only`.
std::vector<bool> key_and_filter_columns(const BoundSelect& query);

// The estimates over `sample_rows` rows drawn at random (a fixed seed, so a plan is
// reproducible). Both estimators can fall short on skewed keys: the hash table's grow-and-rerun
// covers an underestimate. Rows whose filter or keys raise an error are skipped (the query
// itself reports those).
GroupEstimate estimate_groups(const BoundSelect& query, const Table& table,
                              const std::vector<Value>& parameters, uint64_t sample_rows);

}  // namespace tally
