// compiler/plan/l2_slices.h and runtime/compile/key_locality.h: which Direct plans run the Scan
// once per slice of a table larger than L2, and that the kernels doing it compile (the GPU
// test tests/gpu/l2_slices_test.cpp runs them against the CPU engine). No GPU needed.
#include "compiler/plan/l2_slices.h"

#include <doctest/doctest.h>

#include "runtime/compile/key_locality.h"
#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/planner_fixture.h"
#include "tests/unit/support/text_check.h"

namespace tally {
namespace {

// 16,384 keys scattered over the rows (k) and 12,500 in order (ks).
Database& slices_db() {
  static Database* db = test::make_planner_db(
      "CREATE TABLE s (k INTEGER, ks INTEGER, v INTEGER, big BIGINT);"
      "INSERT INTO s SELECT range * 7919 % 16384, range / 8, range % 1000, range * 2654435761 "
      "FROM range(100000)");
  return *db;
}

// An L2 of 192 KiB: a pass may fill 64 KiB of it.
DeviceLimits small_l2() {
  DeviceLimits limits;
  limits.l2_bytes = 3 * 65536;
  return limits;
}

struct Planned {
  BoundSelect query;
  std::vector<ColumnStats> stats;
  GpuPlan plan;
};

Planned direct_plan(const std::string& sql, const DeviceLimits& limits = small_l2()) {
  Planned p{test::bind_first(slices_db(), sql), {}, {}};
  p.stats = scan_stats(p.query, *slices_db().table(p.query.table));
  p.plan = test::plan_bound(slices_db(), p.query, GpuStrategy::Direct, limits);
  return p;
}

}  // namespace

TEST_CASE("l2 slices: a table past L2 with scattered keys runs once per slice") {
  Planned p = direct_plan("SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k");
  REQUIRE(p.plan.slots == 16384);
  CHECK(merged_bytes_per_slot(p.plan, p.query, p.stats) == 8);  // the packed count and sum
  CHECK(l2_slices_may_pay(p.plan, p.query, p.stats, small_l2()));
  const KeyLocality scattered{p.plan.slots, 1024, 1000};
  const GpuPlan sliced = with_l2_slices(p.plan, p.query, p.stats, small_l2(), scattered);
  CHECK(sliced.scan_slices == 2);
  CHECK(sliced.slice_slots == 8192);
  CHECK(contains(sliced.reason, "2 passes over slices of 8192 slots that fit L2"));
  CHECK(contains(sliced.considered, "L2 slices: 2 of 8192 slots (8 bytes a slot merged"));
  const std::string source = generate_cuda(p.query, sliced, p.stats).source;
  CHECK(contains(source, "const u32 slice_cell = (u32)slot - slice_first;"));
  CHECK(contains(source, "if (slice_cell < 8192u) {"));
  // Unpacked fields: a 128-bit sum of values past 2^32 and a MIN beside the count.
  Planned wide = direct_plan("SELECT k, COUNT(*), SUM(big), MIN(v) FROM s GROUP BY k");
  CHECK(merged_bytes_per_slot(wide.plan, wide.query, wide.stats) == 8 + 16 + 8);
  const GpuPlan wide_sliced =
      with_l2_slices(wide.plan, wide.query, wide.stats, small_l2(), scattered);
  CHECK(wide_sliced.scan_slices == 8);  // 65,536 / 32 bytes: slices of 2,048 slots
  if (!cuda::nvrtc_available()) return;
  CHECK(!cuda::compile_cuda(source, "l2_slices.cu").image.empty());
  CHECK(!cuda::compile_cuda(generate_cuda(wide.query, wide_sliced, wide.stats).source,
                            "l2_slices_wide.cu")
             .image.empty());
}

TEST_CASE("l2 slices: where they do not pay the plan stays one pass and says why") {
  Planned p = direct_plan("SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k");
  // The rows in flight span 1,000 slots: they merge within L2 already.
  GpuPlan kept = with_l2_slices(p.plan, p.query, p.stats, small_l2(), {1000, 1024, 1000});
  CHECK(kept.scan_slices == 1);
  CHECK(contains(kept.considered, "not taken: the rows in flight merge within L2 already"));
  // A sample whose keys repeat: skewed keys, the hot ones in L2 already.
  kept = with_l2_slices(p.plan, p.query, p.stats, small_l2(), {p.plan.slots, 1024, 750});
  CHECK(kept.scan_slices == 1);
  CHECK(contains(kept.considered, "not taken: the keys are skewed"));
  CHECK(kept.block_cache_slots == p.plan.block_cache_slots);  // hot keys keep their cache
  // An L2 of 12 KiB would take 32 passes.
  DeviceLimits tiny;
  tiny.l2_bytes = 3 * 4096;
  Planned t = direct_plan("SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k", tiny);
  kept = with_l2_slices(t.plan, t.query, t.stats, tiny, {t.plan.slots, 1024, 1000});
  CHECK(kept.scan_slices == 1);
  CHECK(contains(kept.considered, "not taken: more than 16 passes"));
  // A table that fits, and a Hash plan, are not considered.
  CHECK(!l2_slices_may_pay(p.plan, p.query, p.stats, DeviceLimits{}));
  const BoundSelect q = test::bind_first(slices_db(), "SELECT k, COUNT(*) FROM s GROUP BY k");
  const GpuPlan hash = test::plan_bound(slices_db(), q, GpuStrategy::Hash, small_l2());
  CHECK(!l2_slices_may_pay(hash, q, scan_stats(q, *slices_db().table("s")), small_l2()));
}

TEST_CASE("l2 slices: a sample tells sorted and skewed keys from scattered ones") {
  const TablePtr table = slices_db().table("s");
  Planned scattered = direct_plan("SELECT k, COUNT(*) FROM s GROUP BY k");
  const auto wide = sample_key_locality(scattered.query, *table, scattered.plan, {}, 4096);
  REQUIRE(wide.has_value());
  CHECK(wide->window_slots > scattered.plan.slots / 2);
  CHECK(wide->sampled == 1024);
  CHECK(wide->distinct > 900);  // 1,024 draws of 16,384 keys: about 32 repeats
  // 4,096 consecutive rows hold 512 values of ks, of 12,500.
  Planned sorted = direct_plan("SELECT ks, COUNT(*) FROM s GROUP BY ks");
  const auto narrow = sample_key_locality(sorted.query, *table, sorted.plan, {}, 4096);
  REQUIRE(narrow.has_value());
  CHECK(narrow->window_slots <= 512);
  CHECK(narrow->window_slots > 400);
  // Skewed: 98% of the rows take key 0. A filter's rows are left out of the sample.
  Planned skewed =
      direct_plan("SELECT CASE WHEN v < 980 THEN 0 ELSE k END AS h, COUNT(*) FROM s GROUP BY h");
  const auto hot = sample_key_locality(skewed.query, *table, skewed.plan, {}, 4096);
  REQUIRE(hot.has_value());
  CHECK(hot->distinct < hot->sampled / 2);
  Planned filtered = direct_plan("SELECT k, COUNT(*) FROM s WHERE v < 500 GROUP BY k");
  const auto half = sample_key_locality(filtered.query, *table, filtered.plan, {}, 4096);
  REQUIRE(half.has_value());
  CHECK(half->sampled < 700);
  CHECK(half->sampled > 300);
}

TEST_CASE("l2 slices: scattered keys drop the block cache and the fields only it flushed into") {
  Planned p = direct_plan("SELECT k, COUNT(*), SUM(v) FROM s GROUP BY k");
  REQUIRE(p.plan.block_cache_slots > 0);
  const std::string cached = generate_cuda(p.query, p.plan, p.stats).source;
  CHECK(contains(cached, "group_rows[slot] = 0"));  // Init clears what the cache flushes into
  CHECK(contains(cached, "const u64 group_rows_total = group_rows[slot] + taken.rows;"));
  const GpuPlan sliced =
      with_l2_slices(p.plan, p.query, p.stats, small_l2(), {p.plan.slots, 1024, 1000});
  CHECK(sliced.block_cache_slots == 0);
  CHECK(scan_shared_bytes(sliced) == 0);
  CHECK(contains(sliced.considered, "block cache: dropped (the sampled keys are scattered"));
  const std::string source = generate_cuda(p.query, sliced, p.stats).source;
  CHECK(!contains(source, "group_rows[slot] = 0"));
  CHECK(contains(source, "packed_counts[slot] = 0"));
  CHECK(contains(source, "const u64 group_rows_total = taken.rows;"));
  CHECK(!contains(source, "insert_or_find"));
  // A MIN beside them keeps its own field, cleared and read.
  Planned with_min = direct_plan("SELECT k, COUNT(*), SUM(v), MIN(big) FROM s GROUP BY k");
  const GpuPlan min_sliced = with_l2_slices(with_min.plan, with_min.query, with_min.stats,
                                            small_l2(), {with_min.plan.slots, 1024, 1000});
  const std::string min_source = generate_cuda(with_min.query, min_sliced, with_min.stats).source;
  CHECK(min_sliced.block_cache_slots == 0);
  CHECK(contains(min_source, "min_big[slot] = "));
  if (!cuda::nvrtc_available()) return;
  CHECK(!cuda::compile_cuda(source, "l2_slices_uncached.cu").image.empty());
  CHECK(!cuda::compile_cuda(min_source, "l2_slices_uncached_min.cu").image.empty());
}

}  // namespace tally
