// compiler/codegen/aggregation_kernels.cpp: a 128-bit sum merges into its global state with one
// 64-bit add (atomic_add_low) only when the statistics prove it never carries out of its low word:
// every value non-negative and the whole table's total below 2^64. Anything else keeps the
// 128-bit add with its carry. (The GPU tests run these merges against the CPU engine.)
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/support/planner_fixture.h"

namespace tally {
namespace {

Database& sums_db() {
  static Database* db = test::make_planner_db("");
  return *db;
}

std::string source(const std::string& sql, GpuStrategy strategy) {
  return test::generated_source(sums_db(), sql, strategy);
}

TEST_CASE("codegen: non-negative sums whose total fits 64 bits merge with a 64-bit add") {
  // Q1's sums: quantities, prices and their products, all >= 0; 60,000 rows.
  const std::string q1 = source(
      "SELECT l_returnflag, l_linestatus, SUM(l_quantity), SUM(l_extendedprice), "
      "SUM(l_extendedprice * (1 - l_discount)), AVG(l_discount), COUNT(*) FROM lineitem "
      "GROUP BY l_returnflag, l_linestatus",
      GpuStrategy::ThreadPrivate);
  CHECK(q1.find("atomic_add_low(&sum_l_quantity[0], (u64)(sum_l_quantity_block0));") !=
        std::string::npos);
  CHECK(q1.find(", (i128)w") == std::string::npos);  // no sum keeps the 128-bit add

  // A sum that can be negative: the carry matters.
  const std::string negative =
      source("SELECT l_returnflag, SUM(l_quantity - 30) FROM lineitem GROUP BY l_returnflag",
             GpuStrategy::ThreadPrivate);
  CHECK(negative.find("atomic_add_low(") == std::string::npos);
  CHECK(negative.find("atomic_add(&sum_l_quantity_30[0], (i128)sum_l_quantity_30_block0);") !=
        std::string::npos);

  // Each value fits 64 bits, but 60,000 of them at up to 5.5e17 do not.
  const std::string large = source(
      "SELECT l_returnflag, SUM(l_extendedprice * l_extendedprice * l_quantity) FROM lineitem "
      "GROUP BY l_returnflag",
      GpuStrategy::ThreadPrivate);
  CHECK(large.find("atomic_add_low(") == std::string::npos);
}

// The first bounded sum shares the row count's word (compiler/plan/count_sum_packing.h).
TEST_CASE("codegen: a hash scan's per-row merges of bounded sums are 64-bit adds") {
  const std::string hash = source(
      "SELECT l_orderkey, SUM(l_quantity), SUM(l_extendedprice), SUM(l_quantity - 30) FROM "
      "lineitem GROUP BY l_orderkey",
      GpuStrategy::Hash);
  CHECK(hash.find("packed_low_count_add(&packed_counts[slot], (l_quantity_null ? 0ull : "
                  "(u64)(l_quantity)), 16u)") != std::string::npos);
  CHECK(hash.find("atomic_add_low(&sum_l_extendedprice[slot], (u64)(") != std::string::npos);
  CHECK(hash.find("atomic_add(&sum_l_quantity_30[slot], (i128)") != std::string::npos);
}

}  // namespace
}  // namespace tally
