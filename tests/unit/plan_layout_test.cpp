// The plan owns the physical layout: shared state fields, the launch list, and the generated
// source holding one kernel per launch (compiler/plan/state_layout.h, launches.h).
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "compiler/codegen/gpu_program.h"
#include "compiler/plan/distinct_bitmaps.h"
#include "compiler/plan/shared_placement.h"
#include "templates/tally_date_parts.cuh"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/result_check.h"

namespace tally {
namespace {

Database& layout_db() {
  static Database* db = test::make_planner_db("");
  return *db;
}

GpuPlan plan(const std::string& sql, GpuStrategy strategy = GpuStrategy::Auto) {
  return test::plan_bound(layout_db(), test::bind_first(layout_db(), sql), strategy);
}

std::vector<KernelId> kernels(const GpuPlan& p) {
  std::vector<KernelId> ids;
  for (const Launch& l : p.launches) ids.push_back(l.kernel);
  return ids;
}

}  // namespace

TEST_CASE("plan layout: an exact variance whose squares pass 128 bits splits its values") {
  // c_wide is a DECIMAL(30,4) whose values pass 64 bits: up to 10^23 unscaled, 77 bits by
  // its exact range (100 by its type), squares 153; halves at 39 bits.
  GpuPlan p = plan("SELECT VAR_SAMP(c_wide), STDDEV_SAMP(c_wide), VAR_SAMP(c_integer) FROM nulls");
  const StateLayout& l = p.layout;
  REQUIRE(l.aggregate_states.size() == 3);
  CHECK(l.aggregate_states[0] == StateKind::VarianceSplit);
  CHECK(l.aggregate_states[1] == StateKind::StddevSplit);
  CHECK(l.aggregate_states[2] == StateKind::VarianceWide);
  CHECK(l.square_split[0] == 39);
  CHECK(l.square_split[2] == 0);
  // Both share one count, sum and the three parts: the same argument.
  CHECK(l.aggregate_fields[0] == l.aggregate_fields[1]);
  REQUIRE(l.aggregate_fields[0].size() == 5);
  CHECK(l.fields[l.aggregate_fields[0][2]].kind == FieldKind::SumSqHighI128);
  CHECK(l.fields[l.aggregate_fields[0][4]].kind == FieldKind::SumSqLowI128);
}

TEST_CASE("plan layout: ARG_MIN of a wide DECIMAL keeps its key and value apart") {
  GpuPlan p = plan(
      "SELECT ARG_MIN(c_wide, c_integer), ARG_MAX(c_double, c_wide), ARG_MIN(c_integer, c_date) "
      "FROM nulls");
  const StateLayout& l = p.layout;
  REQUIRE(l.aggregate_states.size() == 3);
  CHECK(l.aggregate_states[0] == StateKind::ArgMinWide);
  CHECK(l.aggregate_states[1] == StateKind::ArgMaxWide);
  CHECK(l.aggregate_states[2] == StateKind::ArgMin);
  CHECK(l.fields[l.aggregate_fields[1][1]].kind == FieldKind::ArgKeyMaxI128);
  // The value among the best key's rows takes a second pass over the rows.
  CHECK(l.second_pass());
}

TEST_CASE("plan layout: aggregates over the same argument share fields") {
  GpuPlan p = plan(
      "SELECT l_returnflag, SUM(l_quantity), AVG(l_quantity), COUNT(l_quantity), COUNT(*), "
      "MIN(l_quantity) FROM lineitem GROUP BY 1");
  const StateLayout& l = p.layout;
  // The row count, one sum for SUM and AVG, one MIN: l_quantity is never NULL, so every
  // non-NULL count is the row count.
  REQUIRE(l.fields.size() == 3);
  CHECK(l.fields[0].kind == FieldKind::Count);
  CHECK(l.aggregate_fields[0] == std::vector<int>{0, 1});
  CHECK(l.aggregate_fields[1] == std::vector<int>{0, 1});
  CHECK(l.aggregate_fields[2] == std::vector<int>{0});
  CHECK(l.aggregate_fields[3] == std::vector<int>{0});
  CHECK(l.aggregate_fields[4] == std::vector<int>{0, 2});
  CHECK(l.fields[2].kind == FieldKind::MinI128);  // l_quantity is a DECIMAL
  CHECK(l.aggregate_states[1] == StateKind::AvgWide);
}

TEST_CASE("plan layout: a nullable or DISTINCT argument keeps fields of its own") {
  GpuPlan p = plan("SELECT COUNT(c_integer), SUM(c_integer), COUNT(DISTINCT c_integer) FROM nulls");
  const StateLayout& l = p.layout;
  // COUNT and SUM share the non-NULL count; the DISTINCT count is fed by other rows.
  CHECK(l.aggregate_fields[0] == std::vector<int>{1});
  CHECK(l.aggregate_fields[1][0] == 1);
  CHECK(l.aggregate_fields[2].size() == 1);
  CHECK(l.aggregate_fields[2][0] != 1);
}

TEST_CASE("plan layout: MIN/MAX of a string column decode through its dictionary") {
  GpuPlan p = plan("SELECT MIN(l_shipmode), MAX(l_quantity) FROM lineitem");
  CHECK(p.layout.aggregate_dictionary[0] >= 0);
  CHECK(p.layout.aggregate_dictionary[1] == -1);
}

TEST_CASE("plan launches: what each strategy runs - and the source has one kernel each") {
  const char* q1 =
      "SELECT l_returnflag, l_linestatus, SUM(l_quantity), COUNT(*) FROM lineitem GROUP BY 1, 2";
  GpuPlan thread = plan(q1);
  REQUIRE(thread.strategy == GpuStrategy::ThreadPrivate);
  CHECK(kernels(thread) == std::vector<KernelId>{KernelId::Scan, KernelId::Finalize});
  CHECK(thread.launches[1].dependent);
  CHECK(scan_sets_states(thread));

  GpuPlan hash = plan(q1, GpuStrategy::Hash);
  CHECK(kernels(hash) == std::vector<KernelId>{KernelId::Init, KernelId::Scan, KernelId::Finalize});
  CHECK_FALSE(hash.launches[2].dependent);
  CHECK_FALSE(scan_sets_states(hash));

  // A DOUBLE variance takes a second pass; the Finalizer then waits like any launch.
  GpuPlan two_pass =
      plan("SELECT l_returnflag, VAR_SAMP(CAST(l_tax AS DOUBLE)) FROM lineitem GROUP BY 1");
  REQUIRE(two_pass.strategy == GpuStrategy::ThreadPrivate);
  CHECK(kernels(two_pass) ==
        std::vector<KernelId>{KernelId::Scan, KernelId::ScanM2, KernelId::Finalize});
  CHECK_FALSE(two_pass.launches[2].dependent);
  CHECK(two_pass.layout.second_pass());

  GpuPlan projection = plan("SELECT l_orderkey FROM lineitem WHERE l_quantity > 49");
  CHECK(kernels(projection) == std::vector<KernelId>{KernelId::ScanCount, KernelId::ScanWrite});

  for (const char* sql :
       {q1, "SELECT l_returnflag, VAR_SAMP(CAST(l_tax AS DOUBLE)) FROM lineitem GROUP BY 1"}) {
    for (GpuStrategy s : {GpuStrategy::Auto, GpuStrategy::Hash, GpuStrategy::Direct}) {
      test::GeneratedScan g = test::generate_scan(layout_db(), sql, s);
      for (const Launch& l : g.plan.launches) {
        INFO(sql << " " << strategy_name(s) << " " << kernel_name(l.kernel));
        CHECK(g.source.find(std::string(" ") + kernel_name(l.kernel) + "(") != std::string::npos);
      }
      const bool init = g.source.find(" tally_init(") != std::string::npos;
      CHECK(init == has_launch(g.plan.launches, KernelId::Init));
    }
  }
}

}  // namespace tally

namespace tally {

TEST_CASE("plan layout: block tables hold a bounded domain in each block's shared memory") {
  BoundSelect q = test::bind_first(
      layout_db(), "SELECT l_partkey % 1000, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1");
  TablePtr table = layout_db().table(q.table);
  const std::vector<ColumnStats> stats = scan_stats(q, *table);
  DeviceLimits h100;
  // Over many rows, auto keeps the 1,000 groups in shared memory: narrow cells (a block's
  // count fits 32 bits), the Scan setting the states, and the launch sized to the tables.
  GpuPlan p = plan_gpu(q, stats, uint64_t{1} << 27, h100, GpuStrategy::Auto);
  CHECK(p.strategy == GpuStrategy::Block);
  REQUIRE(p.block_table.cells.size() == p.layout.fields.size());
  CHECK(p.block_table.cells[0] == CellType::U32);
  // Four copies of the table fit beside each other at 4 blocks an SM (56 KiB each).
  CHECK(p.block_replicas == 4);
  CHECK(p.block_table.shared_bytes == 1000 * (4 + 8) * 4);
  CHECK(scan_shared_bytes(p) == p.block_table.shared_bytes);
  CHECK(p.grid == static_cast<uint32_t>(h100.sm_count) * p.blocks_per_sm);
  CHECK(p.block * p.blocks_per_sm <= 1024);
  CHECK_FALSE(has_launch(p.launches, KernelId::Init));
  const std::string explained = describe_plan(p);
  CHECK(explained.find("block table: 1000 slots x (u32, i64) x 4 copies") != std::string::npos);
  // --explain shows the group bound and why each other strategy lost.
  CHECK(explained.find("groups: at most 1000") != std::string::npos);
  CHECK(explained.find("thread: 1000 slots x 2 fields exceed registers") != std::string::npos);
  CHECK(explained.find("direct: 1000 slots in global memory") != std::string::npos);
  // Over few rows each block would clear and flush more slots than it reads rows: direct.
  CHECK(plan_gpu(q, stats, table->rows(), h100, GpuStrategy::Auto).strategy == GpuStrategy::Direct);
  // Forced, it plans whatever the row count, and its source declares the shared table.
  GpuPlan forced = plan_gpu(q, stats, table->rows(), h100, GpuStrategy::Block);
  CHECK(forced.strategy == GpuStrategy::Block);
  const std::string source = generate_cuda(q, forced, stats).source;
  CHECK(source.find("extern __shared__") != std::string::npos);
  CHECK(source.find(fmt::format(
            "shared_atomic_add(&group_rows_cells[(u32)slot * {0}u + (threadIdx.x & {1}u)], "
            "(u32)1)",
            forced.block_replicas, forced.block_replicas - 1)) != std::string::npos);
}

// Copies of a block table: as many as fit beside each other at the plan's blocks an SM, up
// to 8; none for a table that fills its share; the flush folds a slot's copies once.
TEST_CASE("plan layout: a block table's copies spread a hot group's merges") {
  DeviceLimits h100;
  const uint64_t room = h100.shared_per_sm / 4 - 1024;
  CHECK(block_table_replicas(3072, 4, h100) == kMaxBlockReplicas);
  CHECK(block_table_replicas(room / 2, 4, h100) == 2);
  CHECK(block_table_replicas(room / 2 + 1, 4, h100) == 1);
  CHECK(block_table_replicas(room, 4, h100) == 1);
  BoundSelect q = test::bind_first(
      layout_db(), "SELECT l_linenumber, COUNT(*), MIN(l_quantity) FROM lineitem GROUP BY 1");
  const std::vector<ColumnStats> stats = scan_stats(q, *layout_db().table(q.table));
  const GpuPlan p = plan_gpu(q, stats, uint64_t{1} << 27, h100, GpuStrategy::Block);
  REQUIRE(p.block_replicas == kMaxBlockReplicas);
  const std::string source = generate_cuda(q, p, stats).source;
  CHECK(source.find("for (u32 copy = 1; copy < 8u; ++copy) {") != std::string::npos);
  CHECK(source.find("group_rows_block += group_rows_cells[table_slot * 8u + copy];") !=
        std::string::npos);
  CHECK(source.find("= min_of(") != std::string::npos);
  CHECK(source.find("if (group_rows_block == 0) continue;") != std::string::npos);
  // 4,096 slots fill a block's share at 4 blocks an SM: half the blocks, twice the threads,
  // hold two copies each.
  BoundSelect wide = test::bind_first(
      layout_db(), "SELECT l_orderkey % 4096, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1");
  const GpuPlan w = plan_gpu(wide, scan_stats(wide, *layout_db().table(wide.table)),
                             uint64_t{1} << 27, h100, GpuStrategy::Auto);
  CHECK(w.strategy == GpuStrategy::Block);
  CHECK(w.blocks_per_sm == 2);
  CHECK(w.block == 512);
  CHECK(w.block_replicas == 2);
  CHECK(describe_plan(w).find("x 2 copies (lane l merges into copy l % 2)") != std::string::npos);
}

TEST_CASE("plan layout: block tables refuse what shared memory cannot hold") {
  DeviceLimits h100;
  // 600,000 slots of 12 bytes do not fit 227 KB even in 16 slices; APPROX_COUNT_DISTINCT's 1 KiB
  // sketches stay in global memory.
  BoundSelect wide = test::bind_first(
      layout_db(), "SELECT l_orderkey * 10, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1");
  TablePtr table = layout_db().table(wide.table);
  CHECK_THROWS_WITH_AS(
      plan_gpu(wide, scan_stats(wide, *table), table->rows(), h100, GpuStrategy::Block),
      doctest::Contains("--strategy block"), Error);
  // Narrow enough: counts, 64-bit sums, a DATE minimum, a DOUBLE maximum, nullable keys.
  BoundSelect narrow = test::bind_first(
      layout_db(),
      "SELECT c_varchar, c_boolean, COUNT(*), COUNT(c_integer), SUM(c_bigint), SUM(c_decimal), "
      "AVG(c_smallint), MIN(c_date), MAX(c_double), SUM(c_double), VAR_SAMP(c_smallint) "
      "FROM nulls GROUP BY c_varchar, c_boolean");
  TablePtr nulls = layout_db().table(narrow.table);
  CHECK(plan_gpu(narrow, scan_stats(narrow, *nulls), nulls->rows(), h100, GpuStrategy::Block)
            .strategy == GpuStrategy::Block);
  // A MIN whose values the statistics keep inside 32 bits takes i32 cells, whatever its
  // field's width (MIN of a DECIMAL(15,2) keeps an i128 field).
  BoundSelect minimum = test::bind_first(
      layout_db(), "SELECT l_returnflag, MIN(l_quantity) FROM lineitem GROUP BY 1");
  CHECK(plan_gpu(minimum, scan_stats(minimum, *table), table->rows(), h100, GpuStrategy::Block)
            .block_table.cells[1] == CellType::I32);
  // One whose values may pass 64 bits keeps 128-bit cells: sm_90's 16-byte compare-and-swap
  // in shared memory.
  const char* cubed = "MIN(l_extendedprice * l_extendedprice * l_extendedprice)";
  BoundSelect wide_minimum = test::bind_first(
      layout_db(), fmt::format("SELECT l_returnflag, {} FROM lineitem GROUP BY 1", cubed));
  const GpuPlan in_blocks = plan_gpu(wide_minimum, scan_stats(wide_minimum, *table), table->rows(),
                                     h100, GpuStrategy::Block);
  CHECK(in_blocks.block_table.cells[1] == CellType::I128);
  // Auto leaves them to Direct, which keeps no block cache for them: their CAS loops contend
  // in shared memory. Over as many rows, 32-bit cells take Block.
  const uint64_t many_rows = uint64_t{60} << 20;
  BoundSelect dates = test::bind_first(
      layout_db(), fmt::format("SELECT l_shipdate, {} FROM lineitem GROUP BY 1", cubed));
  const GpuPlan wide_auto =
      plan_gpu(dates, scan_stats(dates, *table), many_rows, h100, GpuStrategy::Auto);
  CHECK(wide_auto.strategy == GpuStrategy::Direct);
  CHECK(wide_auto.block_cache_slots == 0);
  BoundSelect narrow_dates = test::bind_first(
      layout_db(),
      "SELECT l_shipdate, MAX(l_linenumber), MIN(l_quantity) FROM lineitem GROUP BY 1");
  CHECK(plan_gpu(narrow_dates, scan_stats(narrow_dates, *table), many_rows, h100, GpuStrategy::Auto)
            .strategy == GpuStrategy::Block);
  BoundSelect sketch = test::bind_first(
      layout_db(),
      "SELECT l_returnflag, APPROX_COUNT_DISTINCT(l_orderkey) FROM lineitem GROUP BY 1");
  CHECK_THROWS_WITH_AS(
      plan_gpu(sketch, scan_stats(sketch, *table), table->rows(), h100, GpuStrategy::Block),
      doctest::Contains("1 KiB sketch"), Error);
  CHECK(plan_gpu(sketch, scan_stats(sketch, *table), table->rows(), h100, GpuStrategy::Auto)
            .strategy == GpuStrategy::Direct);
}

TEST_CASE("plan layout: a block table larger than shared memory runs in slices") {
  DeviceLimits h100;
  const BoundSelect q = test::bind_first(
      layout_db(), "SELECT l_orderkey, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1");
  const uint64_t rows = layout_db().table(q.table)->rows();
  auto plan_for = [&](const BoundSelect& query, uint64_t over, GpuStrategy strategy) {
    return plan_gpu(query, scan_stats(query, *layout_db().table(query.table)), over, h100,
                    strategy);
  };
  // SF 0.01's 60,000 order keys do not fit one block. In 3 slices they fit once the row count
  // and the sum share a 64-bit word (12 bytes a slot unpacked do not), and over many rows auto
  // takes them: one Scan pass a slice, Init setting the states first.
  GpuPlan p = plan_for(q, uint64_t{1} << 27, GpuStrategy::Auto);
  CHECK(p.strategy == GpuStrategy::Block);
  CHECK(p.scan_slices == 3);
  CHECK(p.slice_slots == (p.slots + 2) / 3);
  CHECK(p.slice_slots * (4 + 8) > 227 * 1024);
  REQUIRE(p.block_table.packed.words == 1);
  CHECK(p.block_table.shared_bytes == p.slice_slots * 8);
  // Each field as many bits as a block's rows can add up: the count's rows, l_quantity <= 50.00
  // (5,000 hundredths).
  const uint64_t block_rows = rows_per_lane(p.rows, p.grid, p.block) * p.block;
  CHECK(p.block_table.packed.place[0].bits == lane_sum_bits(1, block_rows));
  CHECK(p.block_table.packed.place[1].bits == lane_sum_bits(5000, block_rows));
  CHECK(has_launch(p.launches, KernelId::Init));
  const std::string explained = describe_plan(p);
  CHECK(explained.find(fmt::format("block table: 3 slices of {} slots, one Scan pass each",
                                   p.slice_slots)) != std::string::npos);
  CHECK(explained.find(fmt::format("x ({} bits of u64 word 0, {} bits of u64 word 0)",
                                   p.block_table.packed.place[0].bits,
                                   p.block_table.packed.place[1].bits)) != std::string::npos);
  const GpuProgram program = generate_cuda(q, p, scan_stats(q, *layout_db().table(q.table)));
  CHECK(program.source.find("const u32 slice_cell = (u32)slot - slice_first;") !=
        std::string::npos);
  CHECK(program.source.find("shared_atomic_add(&packed0_cells[slice_cell], ") != std::string::npos);
  CHECK(program.source.find("atomic_add(&group_rows[table_slot + slice_first]") !=
        std::string::npos);
  CHECK(std::count_if(program.args.begin(), program.args.end(),
                      [](const ArgSlot& a) { return a.kind == ArgKind::SliceFirst; }) == 1);
  // Over few rows a pass would flush more slots than it reads rows: direct.
  CHECK(plan_for(q, rows, GpuStrategy::Auto).strategy == GpuStrategy::Direct);
  // More slices than auto takes (each reads every row): direct, unless block is forced.
  const BoundSelect wide = test::bind_first(
      layout_db(), "SELECT l_orderkey * 3, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1");
  const GpuPlan direct = plan_for(wide, uint64_t{1} << 27, GpuStrategy::Auto);
  CHECK(direct.strategy == GpuStrategy::Direct);
  CHECK(direct.considered.find("7 slices of") != std::string::npos);
  CHECK(direct.considered.find("(auto takes up to 5)") != std::string::npos);
  GpuPlan forced = plan_for(wide, rows, GpuStrategy::Block);
  CHECK(forced.strategy == GpuStrategy::Block);
  CHECK(forced.sliced());
  CHECK(forced.slice_slots * forced.scan_slices >= forced.slots);
  // 7 slices: auto takes them where a Direct table keeps the count and sum apart (values past a
  // 2^32 range; a block's sum then needs 64 bits beside the count's: no packing), and up to 5
  // where Direct would pack them into one atomic a row (kAutoBlockSlicesPacked).
  const BoundSelect apart = test::bind_first(
      layout_db(),
      "SELECT l_orderkey * 2, COUNT(*), SUM(l_orderkey * 100000) FROM lineitem GROUP BY 1");
  const GpuPlan in_slices = plan_for(apart, uint64_t{1} << 27, GpuStrategy::Auto);
  CHECK(in_slices.strategy == GpuStrategy::Block);
  CHECK(in_slices.scan_slices == 7);
  CHECK(in_slices.block_table.packed.words == 0);
  CHECK(in_slices.block_table.shared_bytes == in_slices.slice_slots * (4 + 8));
  const BoundSelect packs = test::bind_first(
      layout_db(), "SELECT l_orderkey * 2, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1");
  const GpuPlan five = plan_for(packs, uint64_t{1} << 27, GpuStrategy::Auto);
  CHECK(five.strategy == GpuStrategy::Block);
  CHECK(five.scan_slices == 5);
  CHECK(five.block_table.packed.words == 1);
}

TEST_CASE("plan layout: direct and hash tables keep a block cache of hot groups") {
  DeviceLimits h100;
  BoundSelect q = test::bind_first(
      layout_db(), "SELECT l_orderkey, COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1");
  TablePtr table = layout_db().table(q.table);
  const std::vector<ColumnStats> stats = scan_stats(q, *table);
  for (GpuStrategy s : {GpuStrategy::Direct, GpuStrategy::Hash}) {
    GpuPlan p = plan_gpu(q, stats, uint64_t{1} << 27, h100, s);
    CHECK(p.strategy == s);
    // 8 blocks an SM share its 228 KB: a u32 count, a sum as narrow as a block's rows of
    // l_quantity allow (32 bits) and a u32 tag a slot.
    const uint64_t room = h100.shared_per_sm / (p.grid / h100.sm_count) - 1024;
    REQUIRE(p.block_table.cells.size() == 2);
    CHECK(p.block_table.cells[0] == CellType::U32);
    CHECK(p.block_table.cells[1] == CellType::I32);
    CHECK(p.block_cache_slots == std::bit_floor(room / 12));
    CHECK(scan_shared_bytes(p) == uint64_t{12} * p.block_cache_slots);
    // Rows that miss the cache merge into the global states during the Scan: they are set
    // before it.
    CHECK(has_launch(p.launches, KernelId::Init));
    CHECK(describe_plan(p).find(fmt::format("block cache: {} slots x (u32, i32, u32 tag)",
                                            p.block_cache_slots)) != std::string::npos);
    const std::string source = generate_cuda(q, p, stats).source;
    CHECK(source.find("#include \"tally_table_shared.cuh\"") != std::string::npos);
    CHECK(source.find("block_cache.insert_or_find((u32)slot)") != std::string::npos);
    CHECK(source.find("shared_atomic_add(&group_rows_cells[(u32)cached], (u32)1)") !=
          std::string::npos);
    CHECK(source.find("atomic_add(&group_rows[cached_slots[table_slot]]") != std::string::npos);
    // A hash table grown for a rerun keeps its cache.
    if (s == GpuStrategy::Hash) {
      CHECK(with_hash_capacity(p, p.slots * 2).block_cache_slots == p.block_cache_slots);
    }
  }
  // A table of few slots gets a cache of twice as many (its groups rarely collide there);
  // none for APPROX_COUNT_DISTINCT's 1 KiB sketches.
  BoundSelect few =
      test::bind_first(layout_db(), "SELECT l_returnflag, COUNT(*) FROM lineitem GROUP BY 1");
  CHECK(plan_gpu(few, scan_stats(few, *table), table->rows(), h100, GpuStrategy::Direct)
            .block_cache_slots == 8);
  BoundSelect sketch = test::bind_first(
      layout_db(), "SELECT l_orderkey, APPROX_COUNT_DISTINCT(l_partkey) FROM lineitem GROUP BY 1");
  GpuPlan wide =
      plan_gpu(sketch, scan_stats(sketch, *table), table->rows(), h100, GpuStrategy::Direct);
  CHECK(wide.block_cache_slots == 0);
  CHECK(scan_shared_bytes(wide) == 0);
}

}  // namespace tally

namespace tally {

TEST_CASE("plan layout: integer MIN and MAX cells are as narrow as the statistics allow") {
  // Twelve fields over 7 groups: with 128-bit MIN/MAX cells the tables passed 48 KB of shared
  // memory and stayed in registers (245 of them a thread).
  const GpuPlan p = plan(
      "SELECT l_shipmode, COUNT(*), SUM(l_extendedprice), MIN(l_quantity), MAX(l_tax), "
      "MIN(l_shipdate), MAX(l_linenumber) FROM lineitem GROUP BY 1");
  REQUIRE(p.strategy == GpuStrategy::ThreadPrivate);
  CHECK(p.shared_thread_tables);
  const StateLayout& l = p.layout;
  auto cell_of = [&](size_t aggregate) {
    return p.thread_tables.cells[static_cast<size_t>(l.aggregate_fields[aggregate].back())];
  };
  CHECK(l.fields[static_cast<size_t>(l.aggregate_fields[2].back())].kind == FieldKind::MinI128);
  for (size_t a = 2; a <= 5; ++a) CHECK(cell_of(a) == CellType::I32);
  // A cell no row reached holds a value every allowed one beats.
  CHECK(cell_identity(FieldKind::MinI128, CellType::I32) == "kI32Max");
  CHECK(cell_identity(FieldKind::MaxI128, CellType::I32) == "kI32Min");
  CHECK(cell_identity(FieldKind::MinI64, CellType::I64) == "kI64Max");
  CHECK(cell_identity(FieldKind::MaxI64, CellType::I64) == "kI64Min");
  CHECK(cell_identity(FieldKind::MinI128, CellType::I128) ==
        std::string(field_info(FieldKind::MinI128).identity));
  CHECK(cell_identity(FieldKind::MinF64, CellType::F64) ==
        std::string(field_info(FieldKind::MinF64).identity));
  // Values the statistics do not bound inside 64 bits keep the field's cell, as do strings'
  // dictionary codes.
  const GpuPlan wide = plan(
      "SELECT l_shipmode, MIN(l_extendedprice * l_extendedprice * l_extendedprice), "
      "MAX(l_comment) FROM lineitem GROUP BY 1");
  CHECK(wide.thread_tables.cells[static_cast<size_t>(wide.layout.aggregate_fields[0].back())] ==
        CellType::I128);
  CHECK(wide.thread_tables.cells[static_cast<size_t>(wide.layout.aggregate_fields[1].back())] ==
        CellType::I64);
}

}  // namespace tally

namespace tally {

TEST_CASE("plan layout: date_trunc keys count periods rather than days") {
  // TPC-H ship dates span 7 years from 1992: at most 28 quarters, 84 months, 7 years and 366
  // weeks, where a day's digit took about 2,500 digits.
  const Result span = test::run_sql(layout_db(),
                                    "SELECT MIN(l_shipdate), MAX(l_shipdate), "
                                    "MAX(l_shipdate) - MIN(l_shipdate) FROM lineitem");
  const int64_t first = span.rows[0][0].i, last = span.rows[0][1].i;
  CHECK(span.rows[0][2].i > 2400);
  struct Case {
    const char* unit;
    uint64_t most;
    int16_t period;
  };
  for (const Case& c : {Case{"month", 84, 1}, Case{"quarter", 28, 3}, Case{"year", 7, 12},
                        Case{"decade", 1, 120}, Case{"week", 366, tally_dates::kPeriodWeeks}}) {
    INFO(c.unit);
    const GpuPlan p = plan(fmt::format(
        "SELECT date_trunc('{}', l_shipdate), COUNT(*) FROM lineitem GROUP BY 1", c.unit));
    REQUIRE(p.keys.size() == 1);
    CHECK(p.keys[0].period == c.period);
    CHECK(p.keys[0].min == tally_dates::period_index(first, c.period));
    CHECK(p.keys[0].values ==
          static_cast<uint64_t>(tally_dates::period_index(last, c.period) - p.keys[0].min + 1));
    CHECK(p.keys[0].values <= c.most);
    CHECK(describe_plan(p).find(fmt::format("digit = the {0} holding the date, counted from {0} ",
                                            c.unit)) != std::string::npos);
  }
  // Days stay days: date_trunc('day') and a TIMESTAMP's truncation.
  CHECK(plan("SELECT date_trunc('day', l_shipdate), COUNT(*) FROM lineitem GROUP BY 1")
            .keys[0]
            .period == 0);
  // Each period's index and first day agree with date_trunc, across year ends and 1970.
  for (int64_t day = -380; day < 380; ++day) {  // 1968-12-17 to 1971-01-15
    for (const Case& c : {Case{"month", 0, 1}, Case{"quarter", 0, 3}, Case{"year", 0, 12},
                          Case{"decade", 0, 120}, Case{"week", 0, tally_dates::kPeriodWeeks}}) {
      const int unit = c.period == 1     ? kUnitMonth
                       : c.period == 3   ? kUnitQuarter
                       : c.period == 12  ? kUnitYear
                       : c.period == 120 ? kUnitDecade
                                         : kUnitWeek;
      const int64_t index = tally_dates::period_index(day, c.period);
      REQUIRE(tally_dates::period_first_day(index, c.period) ==
              tally_dates::date_trunc_days(day, unit));
      REQUIRE(tally_dates::period_index(tally_dates::date_trunc_days(day, unit), c.period) ==
              index);
      REQUIRE(tally_dates::period_index32(day, c.period) == index);
    }
  }
  // The Scan's 32-bit index agrees with the 64-bit one over the whole range it serves.
  for (int64_t day = -(int64_t{1} << 30); day <= int64_t{1} << 30; day += 999983) {
    for (int period : {1, 3, 12, 120, static_cast<int>(tally_dates::kPeriodWeeks)}) {
      REQUIRE(tally_dates::period_index32(day, period) == tally_dates::period_index(day, period));
    }
  }
  for (int64_t day : {-(int64_t{1} << 30), int64_t{1} << 30, int64_t{-1}, int64_t{0}}) {
    for (int period : {1, 3, 12, 120, static_cast<int>(tally_dates::kPeriodWeeks)}) {
      CHECK(tally_dates::period_index32(day, period) == tally_dates::period_index(day, period));
    }
  }
}

}  // namespace tally

namespace tally {

TEST_CASE("plan layout: COUNT(DISTINCT) over at most 64 values keeps them as bits") {
  // l_shipmode's 7 codes and l_linenumber's 1-7 fit a word's bits; l_suppkey's thousands
  // take a bitmap, a DOUBLE keeps the DISTINCT set, as does the interpreter's own layout.
  const GpuPlan p = plan(
      "SELECT l_returnflag, COUNT(DISTINCT l_shipmode), COUNT(DISTINCT l_linenumber), "
      "COUNT(DISTINCT EXTRACT(MONTH FROM l_shipdate)), COUNT(DISTINCT l_suppkey), "
      "COUNT(DISTINCT CAST(l_tax AS DOUBLE)), COUNT(*) FROM lineitem GROUP BY 1");
  const std::vector<StateKind>& states = p.layout.aggregate_states;
  REQUIRE(states.size() == 6);
  for (size_t a = 0; a < 3; ++a) CHECK(states[a] == StateKind::CountDistinctBits);
  CHECK(states[3] == StateKind::Count);
  CHECK(states[4] == StateKind::Count);
  CHECK(p.layout.distinct_base[0] == 0);
  CHECK(p.layout.distinct_base[1] == 1);
  CHECK(p.layout.distinct_base[2] == 1);
  CHECK(p.layout.fields[static_cast<size_t>(p.layout.aggregate_fields[0][0])].kind ==
        FieldKind::DistinctBits);
  CHECK(p.distinct_capacity > 0);  // the DOUBLE's set
  const std::string explain = describe_plan(p);
  CHECK(explain.find("agg0: the values seen as one word's bits (bit = value - 0)") !=
        std::string::npos);
  CHECK(explain.find("agg3: the values seen as bits of a bitmap") != std::string::npos);
  CHECK(explain.find("agg4:") == std::string::npos);
  // Only bits: no set at all.
  CHECK(plan("SELECT COUNT(DISTINCT l_shipmode), COUNT(*) FROM lineitem").distinct_capacity == 0);
  // The interpreter keeps the set for every DISTINCT aggregate.
  const BoundSelect q =
      test::bind_first(layout_db(), "SELECT COUNT(DISTINCT l_shipmode) FROM lineitem");
  const TablePtr table = layout_db().table(q.table);
  CHECK(layout_states(q, scan_stats(q, *table), table->rows()).aggregate_states[0] ==
        StateKind::Count);
}

TEST_CASE("plan layout: DISTINCT over a bounded domain keeps a bitmap a slot") {
  const std::string sql =
      "SELECT l_returnflag, COUNT(DISTINCT l_suppkey), SUM(DISTINCT l_quantity), "
      "COUNT(DISTINCT CAST(l_tax AS DOUBLE)), COUNT(*) FROM lineitem GROUP BY 1";
  const GpuPlan p = plan(sql);
  REQUIRE(p.strategy != GpuStrategy::Hash);
  REQUIRE(p.distinct_bitmaps.size() == 4);
  const BoundSelect q = test::bind_first(layout_db(), sql);
  const ColumnStats suppkey =
      scan_stats(q, *layout_db().table(q.table)).at(q.aggregates[0].arg->index);
  const DistinctBitmap& first = p.distinct_bitmaps[0];
  CHECK(first.base == suppkey.min);
  CHECK(first.values == static_cast<uint64_t>(suppkey.max - suppkey.min + 1));
  CHECK(first.first_bit == 0);
  // The second starts at a word past the first's slots.
  const DistinctBitmap& second = p.distinct_bitmaps[1];
  CHECK(second.values > 0);
  CHECK(second.first_bit % 32 == 0);
  CHECK(second.first_bit >= p.slots * first.values);
  CHECK(p.distinct_bitmap_words * 32 >= second.first_bit + p.slots * second.values);
  CHECK_FALSE(in_distinct_bitmap(p, 2));  // a DOUBLE: the set
  CHECK_FALSE(in_distinct_bitmap(p, 3));
  CHECK(p.distinct_capacity > 0);
  // Without the DOUBLE nothing probes the set.
  CHECK(plan("SELECT l_returnflag, COUNT(DISTINCT l_suppkey) FROM lineitem GROUP BY 1")
            .distinct_capacity == 0);
  // A hash table's slots grow with its capacity: it keeps the set, sized for the pairs the
  // bitmaps held when a planned table becomes one.
  const GpuPlan hash = plan(sql, GpuStrategy::Hash);
  CHECK(hash.distinct_bitmaps.empty());
  CHECK(hash.distinct_capacity > 0);
  const GpuPlan bitmaps_only =
      plan("SELECT l_returnflag, COUNT(DISTINCT l_suppkey) FROM lineitem GROUP BY 1");
  const GpuPlan grown = with_hash_capacity(bitmaps_only, 4096);
  CHECK(grown.distinct_bitmaps.empty());
  CHECK(grown.distinct_bitmap_words == 0);
  CHECK(grown.distinct_capacity >=
        2 * std::min(bitmaps_only.rows, bitmaps_only.slots * first.values));
  // Past a set's size (a bitmap of 384 bits a pair and more than 1 MiB) the set stays.
  const GpuPlan sparse = plan(
      "SELECT l_orderkey, COUNT(DISTINCT l_partkey) FROM lineitem GROUP BY 1", GpuStrategy::Direct);
  CHECK_FALSE(in_distinct_bitmap(sparse, 0));
  CHECK(sparse.distinct_capacity > 0);
}

}  // namespace tally
