// compiler/plan/thread_cell_packing: the bits a thread's non-negative sum needs, and the packing of
// such sums into shared 64-bit words (exact only if no field can carry into the next). Then
// the code generator: Q1's non-negative sums and row count share words, a sum that can be
// negative keeps its own cell, and the flush takes each field back out of its word (NVRTC
// compiles these scans in codegen_test's every-query test).
#include "compiler/plan/thread_cell_packing.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "compiler/codegen/gpu_program.h"
#include "tests/unit/support/planner_fixture.h"

namespace tally {
namespace {

// Bits of n, counted exactly.
uint32_t bits_of(unsigned __int128 n) {
  uint32_t b = 0;
  for (; n > 0; n >>= 1) ++b;
  return b;
}

TEST_CASE("lane_sum_bits: exactly the bits of the largest sum") {
  CHECK(lane_sum_bits(1, 448) == 9);      // a row count over 448 rows
  CHECK(lane_sum_bits(5000, 448) == 22);  // 2,240,000 < 2^22
  CHECK(lane_sum_bits(1, 512) == 10);     // 512 itself
  CHECK(lane_sum_bits(0, 1) == 1);        // always zero: still one bit
  CHECK(lane_sum_bits(-1, 10) == 0);      // negative values never pack
  CHECK(lane_sum_bits(9.0e18L, 4) == 0);  // past 64 bits
  for (uint64_t max : {1ull, 2ull, 3ull, 7ull, 8ull, 100ull, 1023ull, 1024ull, 10495000ull,
                       1133460000ull, (1ull << 40) - 1}) {
    for (uint64_t rows : {1ull, 2ull, 32ull, 33ull, 448ull, 512ull, 4480ull, 65536ull}) {
      const unsigned __int128 top = static_cast<unsigned __int128>(max) * rows;
      const uint32_t bits = lane_sum_bits(static_cast<long double>(max), rows);
      INFO("max " << max << " rows " << rows << " bits " << bits);
      if (bits_of(top) > 64) {
        CHECK(bits == 0);
        continue;
      }
      CHECK(bits == bits_of(top));
    }
  }
}

TEST_CASE("pack_thread_cells: first fit decreasing - fields disjoint - lone fields unpacked") {
  // Q1 at SF 10 on an H100: count 9, quantity 22, discount 13, price 26, disc_price 33,
  // charge 40 bits; field 6 cannot pack.
  const std::vector<uint32_t> bits = {9, 22, 26, 33, 40, 13, 0};
  PackedCells cells = pack_thread_cells(bits);
  REQUIRE(cells.place.size() == bits.size());
  CHECK(cells.words == 3);
  CHECK(cells.place[6].word < 0);
  std::vector<uint64_t> taken(cells.words, 0);
  for (size_t f = 0; f < bits.size(); ++f) {
    const CellPlace& at = cells.place[f];
    if (at.word < 0) continue;
    CHECK(at.bits == bits[f]);
    REQUIRE(at.shift + at.bits <= 64);
    const uint64_t mask = ((at.bits == 64 ? 0 : (uint64_t{1} << at.bits)) - 1) << at.shift;
    CHECK((taken[static_cast<size_t>(at.word)] & mask) == 0);  // no two fields overlap
    taken[static_cast<size_t>(at.word)] |= mask;
  }
  // 40 + 22 and 33 + 26 fill two words; 13 + 9 the third.
  CHECK(cells.place[4].word == cells.place[1].word);
  CHECK(cells.place[3].word == cells.place[2].word);
  CHECK(cells.place[5].word == cells.place[0].word);

  // A field that fits no word with another keeps its own cell: no word of one field.
  PackedCells lone = pack_thread_cells({40, 40, 10});
  CHECK(lone.words == 1);
  CHECK(lone.place[0].word == 0);
  CHECK(lone.place[1].word < 0);
  CHECK(lone.place[2].word == 0);
  CHECK(pack_thread_cells({64, 0, 0}).words == 0);
}

Database& packing_db() {
  static Database* db = test::make_planner_db("");
  return *db;
}

std::string scan_source(const std::string& sql) {
  BoundSelect q = test::bind_first(packing_db(), sql);
  REQUIRE(test::plan_bound(packing_db(), q, GpuStrategy::ThreadPrivate).shared_thread_tables);
  return test::generated_source(packing_db(), sql, GpuStrategy::ThreadPrivate);
}

TEST_CASE("codegen: non-negative sums share packed words - a sum that can be negative does not") {
  const std::string q1 = scan_source(
      "SELECT l_returnflag, l_linestatus, SUM(l_quantity), SUM(l_extendedprice), "
      "SUM(l_extendedprice * (1 - l_discount)), AVG(l_discount), COUNT(*) FROM lineitem "
      "GROUP BY l_returnflag, l_linestatus");
  CHECK(q1.find("u64* const packed0_cells = (u64*)(thread_cells + ") != std::string::npos);
  CHECK(q1.find("packed0_cell[(u32)slot * 128u] += ") != std::string::npos);
  CHECK(q1.find("i64* const sum_") == std::string::npos);  // every field packed
  // The count is taken back out of its word at the flush, not read as a whole cell.
  CHECK(q1.find(">> ") != std::string::npos);

  const std::string mixed = scan_source(
      "SELECT l_returnflag, SUM(l_quantity), COUNT(*), SUM(l_quantity - 30) FROM lineitem "
      "GROUP BY l_returnflag");
  CHECK(mixed.find("packed0_cell[(u32)slot") != std::string::npos);
  // SUM(l_quantity - 30) can be negative: its own cell, added to as before.
  CHECK(mixed.find("sum_l_quantity_30_cell[(u32)slot * 128u] += (i32)") != std::string::npos);
}

}  // namespace
}  // namespace tally
