// The data of the GROUP BY sweep (bench/groupby_sweep.cpp): the seed paper's atable (col1 keys,
// col2 INTEGER values in [0, 1e6), tools/data/paper_tables.h) reduced to the columns Query B reads,
// with one group key per key kind, and the same keys as int32 in [0, K) for the hand-written peers.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runtime/storage/table.h"

namespace tally::bench {

// How the K groups come about (the query each kind runs is Point::sql).
//   column  col1 itself, drawn over [0, K): a new column for every K
//   mod     MOD(col1, K) over one col1 drawn over [0, M), M = the power of two >= max(K, 2^24)
//   two     two INTEGER columns ka = key % K1 and kb = key / K1, GROUP BY both, where key
//           is mod's col1 % K, K1 the largest divisor of K not above sqrt(K) and K2 = K / K1:
//           K1 x K2 = K groups, mod's own, so that the two kinds differ only in how many
//           key columns spell the group
//   string  a VARCHAR skey holding "k" and col1 % K in fixed-width decimal (so dictionary
//           order is numeric order), over the same col1: a dictionary of up to K strings
enum class KeyKind { Column, Mod, Two, String };
const char* key_kind_name(KeyKind kind);
KeyKind key_kind_from_name(const std::string& name);  // throws std::invalid_argument

// Key distribution: uniform, or Zipf with this exponent (rank 1 is key 0).
struct KeyDist {
  std::string name;     // "uniform", "zipf1.0"
  double exponent = 0;  // 0: uniform
};
KeyDist key_dist_from_name(const std::string& name);  // throws std::invalid_argument

// One (kind, distribution, K): what tally reads and runs, and what the peers read.
struct Point {
  TablePtr table;             // "atable": the key column(s), then col2
  std::string sql;            // SELECT <key> AS g, COUNT(*) AS n, SUM(col2) AS s ... GROUP BY
  std::vector<int32_t> keys;  // the group of each row in [0, K), for the peers
  uint64_t k = 0;
  uint64_t k1 = 0;  // kind two: the result's key is g1 + k1 * g2
};

// Generates the points, reusing what does not change with K: col2 (the same for every
// point), and per distribution the col1 that mod, two and string reduce.
class Workload {
 public:
  Workload(size_t rows, uint64_t k_max, uint64_t seed);

  Point point(KeyKind kind, const KeyDist& dist, uint64_t k);
  // Forgets the col1 of distributions other than `dist` (they are not asked for again when
  // the sweep goes distribution by distribution).
  void keep_only(const KeyDist& dist);

  const std::vector<int32_t>& values() const { return values_; }
  size_t rows() const { return values_.size(); }
  uint64_t base_range() const { return base_range_; }
  double generation_s() const { return generation_s_; }  // spent so far

 private:
  struct Base {
    std::vector<int32_t> keys;
    ColumnPtr column;
  };
  const Base& base(const KeyDist& dist);

  uint64_t seed_;
  uint64_t base_range_;
  std::vector<int32_t> values_;
  ColumnPtr col2_;
  std::map<std::string, Base> bases_;
  double generation_s_ = 0;
};

// K1 of kind two: the largest divisor of k that is at most sqrt(k).
uint64_t two_key_split(uint64_t k);

}  // namespace tally::bench
