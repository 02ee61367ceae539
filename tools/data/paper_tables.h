// Tables of the seed papers' experiments, and a small table with NULLs of every type.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/storage/table.h"

namespace tally {

class ZipfSampler;

// Karnagel et al. 2015, Query A: orders(zip INTEGER, chargedamount REAL, tax REAL,
// ordertotal REAL). zip is uniform over [0, zip_count); ordertotal is in [1, 1000] and
// chargedamount = ordertotal less a discount of 0..30 %, tax included at 0..10 %, so
// 0 <= tax < chargedamount <= ordertotal (all rounded to cents).
TablePtr generate_orders_table(size_t rows, uint32_t zip_count, uint64_t seed);

// Karnagel et al. 2015, Query B: atable(col1 BIGINT, col2 INTEGER, col3 DOUBLE,
// col4 DECIMAL(12,2)). col1 is uniform over [0, key_range), or Zipf with the given
// exponent (key k - 1 has rank k: 0 is the most frequent key); col2 is uniform over
// [0, 1000000), col3 over [0, 1000), col4 over [0.00, 10000.00].
TablePtr generate_atable(size_t rows, uint64_t key_range, double zipf_exponent, uint64_t seed);

// col1 and col2 of generate_atable's row `row`, for benchmarks that build only these columns
// (bench/groupby_workload.cpp) with the same values. `zipf` is null for uniform keys, else a
// ZipfSampler(key_range, exponent).
uint64_t atable_col1(uint64_t seed, size_t row, uint64_t key_range, const ZipfSampler* zipf);
int64_t atable_col2(uint64_t seed, size_t row);

// nulls(c_smallint SMALLINT, c_integer INTEGER, c_bigint BIGINT, c_real REAL,
// c_double DOUBLE, c_decimal DECIMAL(10,2), c_wide DECIMAL(30,4), c_date DATE,
// c_varchar VARCHAR(20), c_boolean BOOLEAN): every value NULL with probability
// null_fraction, otherwise drawn from a domain of 10 values per column (2 for BOOLEAN) so that
// the columns make good GROUP BY keys.
TablePtr generate_nulls_table(size_t rows, double null_fraction, uint64_t seed);

}  // namespace tally
