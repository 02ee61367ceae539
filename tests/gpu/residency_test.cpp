// What the GPU engine keeps on the device between queries: a statement's missing columns are
// copied while its kernels compile, columns of dropped or replaced tables leave at the next
// query, loaded modules are capped, and an allocation that finds the device full releases
// what the pool's owner can rebuild before it gives up.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "compiler/bind/binder.h"
#include "compiler/common/error.h"
#include "compiler/parse/parser.h"
#include "runtime/cuda/memory.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/database.h"
#include "tests/gpu/gpu_support.h"
#include "tests/gpu/strategy_compare.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

BoundSelect bind(const Database& db, const std::string& sql) {
  auto statements = parse_script(sql);
  return bind_select(std::get<ast::SelectStmt>(statements[0].body), db, 0);
}

Result run_on(GpuEngine& engine, const Database& db, const std::string& sql) {
  BoundSelect q = bind(db, sql);
  return engine.run(q, *db.table(q.table), {}, std::make_shared<StringHeap>(), GpuRunOptions{});
}

}  // namespace

TEST_CASE("gpu residency: columns of a replaced table leave the device at the next query") {
  GpuEngine engine;
  Database db;
  const std::string sql = "SELECT zip, COUNT(*), MAX(tax) FROM orders GROUP BY zip";
  for (int i = 0; i < 5; ++i) {
    db.put_table(generate_orders_table(4000 + i, 50, static_cast<uint64_t>(i)));
    Result r = run_on(engine, db, sql);
    CHECK(r.device.rfind("gpu", 0) == 0);
    // zip and tax of the current table only: the replaced tables' columns were swept.
    CHECK(engine.residency().columns == 2);
  }
}

TEST_CASE("gpu residency: a statement copies its missing columns while its kernels compile") {
  GpuEngine engine;
  Database db;
  db.put_table(generate_orders_table(300000, 50, 11));
  const std::string sql =
      "SELECT zip, COUNT(*), SUM(tax), MAX(chargedamount) FROM orders WHERE tax > 1 GROUP BY zip";
  const BoundSelect q = tally::bind(db, sql);
  const Table& table = *db.table(q.table);
  auto run = [&](GpuRunReport& report, uint64_t memory_limit) {
    GpuRunOptions options;
    options.device_memory_limit = memory_limit;
    return engine.run(q, table, {}, std::make_shared<StringHeap>(), options, &report);
  };
  // The copy fails beside the compile: the statement raises its error, the engine goes on.
  GpuRunReport failed;
  try {
    run(failed, 4096);
    FAIL("a 4 KiB device memory limit held 300,000 rows");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Device);
  }
  GpuRunReport first, second;
  Result gpu = run(first, 0);
  CHECK(first.upload_ahead);
  CHECK(first.column_bytes > 0);
  Result again = run(second, 0);  // resident now: nothing to copy ahead
  CHECK_FALSE(second.upload_ahead);
  CHECK(second.column_bytes == 0);
  Result cpu = test::run_on_device(db, sql, DeviceChoice::Cpu, "auto");
  CHECK(test::result_difference(cpu, gpu, test::gpu_tolerances(cpu)) == "");
  CHECK(test::result_difference(cpu, again, test::gpu_tolerances(cpu)) == "");
}

TEST_CASE("gpu residency: loaded modules stay below the cap however many queries run") {
  GpuEngine engine;
  Database db;
  db.put_table(generate_orders_table(2000, 50, 3));
  // Each constant makes another program (another source, another binary).
  for (int i = 0; i < 70; ++i) {
    run_on(engine, db,
           "SELECT zip, COUNT(*) FROM orders WHERE tax > " + std::to_string(i) + " GROUP BY zip");
  }
  CHECK(engine.residency().modules <= 64);
  CHECK(engine.residency().modules >= 1);
}

TEST_CASE("gpu memory: an allocation that finds the device full asks the reclaimer, then fails") {
  cuda::test::test_device();
  cuda::BufferPool pool(0);
  std::vector<cuda::DeviceBuffer> held;
  int reclaims = 0;
  pool.set_reclaimer([&] {
    if (held.empty()) return false;
    held.pop_back();
    ++reclaims;
    return true;
  });
  // Fill the device with 2 GiB buffers; the reclaimer frees them back one by one, so the
  // pool never reports out of memory while it holds something to free.
  const size_t chunk = size_t{2} << 30;
  bool full = false;
  for (int i = 0; i < 256 && !full; ++i) {
    int before = reclaims;
    held.push_back(pool.allocate(chunk, "a filler"));
    full = reclaims > before;
  }
  CHECK(full);
  // With the reclaimer out of buffers to free, the error names out of memory.
  held.clear();
  pool.set_reclaimer([] { return false; });
  std::vector<cuda::DeviceBuffer> more;
  bool failed = false;
  try {
    for (int i = 0; i < 256; ++i) more.push_back(pool.allocate(chunk, "a filler"));
  } catch (const Error& e) {
    failed = true;
    CHECK(e.kind() == ErrorKind::Device);
    CHECK(std::string(e.what()).find("memory") != std::string::npos);
  }
  CHECK(failed);
}

}  // namespace tally
