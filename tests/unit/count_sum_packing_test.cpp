// compiler/plan/count_sum_packing.h: which global tables add the row count and a sum with one
// atomic, with what offset, and that the kernels doing it compile (the GPU test
// tests/gpu/packed_counts_test.cpp runs them against the CPU engine). No GPU needed.
#include "compiler/plan/count_sum_packing.h"

#include <doctest/doctest.h>

#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/planner_fixture.h"

namespace tally {
namespace {

Database& packing_db() {
  static Database* db = test::make_planner_db("");
  return *db;
}

CountSumPacking packing(const std::string& sql, GpuStrategy strategy, uint64_t rows = 0) {
  const BoundSelect q = test::bind_first(packing_db(), sql);
  GpuPlan plan = test::plan_bound(packing_db(), q, strategy);
  if (rows) plan.rows = rows;
  return count_sum_packing(plan, q, scan_stats(q, *packing_db().table(q.table)));
}

}  // namespace

TEST_CASE("count sum packing: global tables pack a narrow sum with the row count") {
  const char* sql = "SELECT l_orderkey, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1";
  for (GpuStrategy s : {GpuStrategy::Direct, GpuStrategy::Hash}) {
    const CountSumPacking p = packing(sql, s);
    CHECK(p.packs());
    CHECK(p.offset == 0);
    // 60,175 rows: 16 count bits; 2^48 / 5,000 rows of quantities is more than the table.
    CHECK(p.count_bits == 16);
    CHECK(p.exact_rows == ~0ull);
  }
  // Per-thread and per-block tables add on chip: nothing to pack.
  CHECK(!packing("SELECT l_returnflag, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1",
                 GpuStrategy::ThreadPrivate)
             .packs());
  // A count and its carries must stay below 2^32.
  CHECK(!packing(sql, GpuStrategy::Hash, 1ull << 31).packs());
}

// The low-count layout's sums are exact to a number of rows; where a group of average size comes
// near it, and after a group passed it, the count goes above bit 32 and carries.
TEST_CASE("count sum packing: the layout follows the rows a sum stays exact for") {
  const char* sql = "SELECT l_orderkey, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1";
  const BoundSelect q = test::bind_first(packing_db(), sql);
  const auto stats = scan_stats(q, *packing_db().table(q.table));
  GpuPlan plan = test::plan_bound(packing_db(), q, GpuStrategy::Hash);
  plan.rows = 1ull << 26;  // 27 count bits: sums of 37 bits, 2^37 / 5,000 = 27,487,790 rows
  plan.slots = 1ull << 16;
  CountSumPacking p = count_sum_packing(plan, q, stats);
  CHECK(p.count_bits == 27);
  CHECK(p.exact_rows == 27487790);
  CHECK(describe_count_sum_packing(plan, q, stats) ==
        "  packed: the row count and SUM(l_quantity) in one 64-bit word a slot, the count in the "
        "low 27 bits (a group past 27487790 rows runs again with carries)\n");
  plan.slots = 4;  // 2^24 rows a group on average
  CHECK(count_sum_packing(plan, q, stats).count_bits == 0);
  plan.slots = 1ull << 16;
  plan.packed_sum_carries = true;
  p = count_sum_packing(plan, q, stats);
  CHECK(p.packs());
  CHECK(p.count_bits == 0);
  CHECK(describe_count_sum_packing(plan, q, stats).find("the count above bit 32") !=
        std::string::npos);
  const std::string source = generate_cuda(q, plan, stats).source;
  CHECK(source.find("packed_count_sum_add(&packed_counts[slot], &pack_carries[slot]") !=
        std::string::npos);
  plan.packed_sum_carries = false;
  const std::string low = generate_cuda(q, plan, stats).source;
  CHECK(low.find("packed_low_count_add(&packed_counts[slot], ") != std::string::npos);
  CHECK(low.find("if (taken.rows > 27487790ull) raise_status(status, kStatusPackedSumAmbiguous)") !=
        std::string::npos);
  CHECK(low.find("pack_carries") == std::string::npos);
  if (!cuda::nvrtc_available()) return;
  CHECK(!cuda::compile_cuda(source, "carries.cu").image.empty());
  CHECK(!cuda::compile_cuda(low, "low_count.cu").image.empty());
}

TEST_CASE("count sum packing: offsets and NULLs") {
  // l_discount - 0.05 is -0.05 .. 0.05: packed as value + 5 (unscaled), taken back per row.
  const CountSumPacking shifted = packing(
      "SELECT l_orderkey, SUM(l_discount - 0.05) FROM lineitem GROUP BY 1", GpuStrategy::Hash);
  CHECK(shifted.packs());
  CHECK(shifted.offset == -5);
  // A nullable sum packs from 0 (a NULL adds 0); one that may be negative does not.
  CHECK(packing("SELECT c_date, SUM(c_integer) FROM nulls GROUP BY 1", GpuStrategy::Hash).packs());
  CHECK(
      !packing("SELECT c_date, SUM(c_smallint) FROM nulls GROUP BY 1", GpuStrategy::Hash).packs());
  // Values past a 2^32 range, and DISTINCT sums (their inputs are the DISTINCT set's), do not.
  CHECK(!packing("SELECT c_date, SUM(c_bigint) FROM nulls GROUP BY 1", GpuStrategy::Hash).packs());
  CHECK(!packing("SELECT c_date, SUM(DISTINCT c_integer) FROM nulls GROUP BY 1", GpuStrategy::Hash)
             .packs());
}

TEST_CASE("count sum packing: the Scan adds one word and the Finalizer takes it back") {
  const test::GeneratedScan g = test::generate_scan(
      packing_db(), "SELECT l_orderkey, COUNT(*), SUM(l_discount - 0.05) FROM lineitem GROUP BY 1",
      GpuStrategy::Hash);
  CHECK(g.source.find("packed_low_count_add(&packed_counts[slot], ") != std::string::npos);
  CHECK(g.source.find("packed_low_count_read") != std::string::npos);
  CHECK(g.source.find("(i128)(-5ll) * (i128)taken.rows") != std::string::npos);
  // The Finalizer's locals of the totals take names no column, alias or field holds.
  const test::GeneratedScan named = test::generate_scan(
      packing_db(),
      "SELECT l_orderkey AS taken, COUNT(*), SUM(l_linenumber) AS group_rows_total FROM "
      "lineitem GROUP BY 1",
      GpuStrategy::Hash);
  CHECK(named.source.find("const u64 group_rows_total1 = ") != std::string::npos);
  if (!cuda::nvrtc_available()) return;
  CHECK(!cuda::compile_cuda(g.source, "packed.cu").image.empty());
  CHECK(!cuda::compile_cuda(named.source, "packed_names.cu").image.empty());
}

}  // namespace tally
