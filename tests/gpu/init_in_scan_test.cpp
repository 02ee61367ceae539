// templates/tally_init_in_scan.cuh: a scan kernel whose first block to start sets the
// states. That block is held back on purpose, so that every other block reaches its merge
// before the states are set: a merge that did not wait would be overwritten and the sums
// would come out short. Grids from one block to many waves of blocks (more than the GPU
// holds at once) must all finish and agree with the CPU. Then the engine: a query with
// per-thread tables runs without an Init kernel and matches the CPU engine; a hash query
// keeps its Init kernel.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "compiler/bind/binder.h"
#include "compiler/parse/parser.h"
#include "runtime/cpu/cpu_engine.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/database.h"
#include "tests/gpu/gpu_support.h"
#include "tools/data/tpch_lineitem.h"

namespace tally::cuda::test {
namespace {

const char* const kInitInScanKernels = R"cuda(
TALLY_DEV u64 global_timer_ns() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// state[s] starts at `identity` (not zero: a merge made before it was set would be lost);
// every block adds its rows' values by slot (row % slots).
extern "C" __global__ void init_in_scan_sums(LaunchSync* sync, i64* state, u32 slots,
                                             i64 identity, const i64* values, u64 n,
                                             u64 first_block_delay_ns) {
  __shared__ i64 partial[64];
  if (first_block_to_start(sync)) {
    if (threadIdx.x == 0) {
      const u64 start = global_timer_ns();
      while (global_timer_ns() - start < first_block_delay_ns) __nanosleep(1000);
    }
    __syncthreads();
    for (u32 s = threadIdx.x; s < slots; s += blockDim.x) state[s] = identity;
    publish_init(sync);
  }
  for (u32 s = threadIdx.x; s < slots; s += blockDim.x) partial[s] = 0;
  __syncthreads();
  for (u64 i = global_thread_index(); i < n; i += grid_stride()) {
    atomicAdd((unsigned long long*)&partial[i % slots], (unsigned long long)values[i]);
  }
  __syncthreads();
  await_init(sync);
  for (u32 s = threadIdx.x; s < slots; s += blockDim.x) {
    atomicAdd((unsigned long long*)&state[s], (unsigned long long)partial[s]);
  }
}
)cuda";

Module& init_in_scan_module() { return test_module(kInitInScanKernels, "init_in_scan_test.cu"); }

TEST_CASE("init in scan: the first block sets the states before any block merges") {
  constexpr uint32_t kSlots = 37, kBlock = 128;
  constexpr int64_t kIdentity = 1000003;
  std::mt19937_64 rng(5);
  std::vector<int64_t> values(1 << 20);
  for (auto& v : values) v = static_cast<int64_t>(rng() % 2000001) - 1000000;
  std::vector<int64_t> expected(kSlots, kIdentity);
  for (size_t i = 0; i < values.size(); ++i) expected[i % kSlots] += values[i];
  DeviceBuffer column = to_device(values, "values");
  const uint32_t sms = static_cast<uint32_t>(test_device().profile().sm_count);
  for (uint32_t grid : {1u, sms, sms * 64}) {
    for (uint64_t delay_ns : {uint64_t{0}, uint64_t{200000}}) {
      INFO("grid " << grid << ", first block held " << delay_ns << " ns");
      DeviceBuffer sync = filled_device<uint32_t>(2, 0, "sync words");
      DeviceBuffer state = filled_device<int64_t>(kSlots, 0, "states");
      launch(init_in_scan_module().kernel("init_in_scan_sums"), {grid, kBlock}, sync.ptr(),
             state.ptr(), kSlots, kIdentity, column.ptr(),
             static_cast<unsigned long long>(values.size()),
             static_cast<unsigned long long>(delay_ns));
      CHECK(from_device<int64_t>(state) == expected);
      const auto words = from_device<uint32_t>(sync);
      CHECK(words[0] == grid);  // every block took a ticket
      CHECK(words[1] == 1u);
    }
  }
}

Database& lineitem_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 11));
    return d;
  }();
  return *db;
}

struct EngineRun {
  Result result;
  GpuRunReport report;
};

EngineRun run_on_gpu(const std::string& sql, GpuStrategy strategy) {
  auto statements = parse_script(sql);
  BoundSelect query = bind_select(std::get<ast::SelectStmt>(statements[0].body), lineitem_db(), 0);
  static GpuEngine engine;
  GpuRunOptions options;
  options.strategy = strategy;
  EngineRun run;
  run.result = engine.run(query, *lineitem_db().table("lineitem"), {},
                          std::make_shared<StringHeap>(), options, &run.report);
  return run;
}

Result run_on_cpu(const std::string& sql) {
  auto statements = parse_script(sql);
  BoundSelect query = bind_select(std::get<ast::SelectStmt>(statements[0].body), lineitem_db(), 0);
  return run_cpu(query, lineitem_db().table("lineitem").get(), {});
}

// Exact for everything but floats (relative 1e-9); both results in the same ORDER BY.
void check_same_rows(const Result& cpu, const Result& gpu) {
  REQUIRE(cpu.rows.size() == gpu.rows.size());
  for (size_t r = 0; r < cpu.rows.size(); ++r) {
    for (size_t c = 0; c < cpu.names.size(); ++c) {
      if (!cpu.types[c].is_float()) {
        CHECK(cpu.cell_text(r, c) == gpu.cell_text(r, c));
        continue;
      }
      const double x = cpu.rows[r][c].f, y = gpu.rows[r][c].f;
      CHECK(std::fabs(x - y) <= 1e-9 * std::max(1.0, std::fabs(x)));
    }
  }
}

// Runs `sql` on the GPU and checks it against the CPU engine; returns the GPU's report.
GpuRunReport checked_gpu_run(const std::string& sql, GpuStrategy strategy) {
  INFO(sql);
  EngineRun gpu = run_on_gpu(sql, strategy);
  check_same_rows(run_on_cpu(sql), gpu.result);
  return gpu.report;
}

TEST_CASE("init in scan: per-thread tables need no Init kernel and match the CPU engine") {
  const std::string q1 =
      "SELECT l_returnflag, l_linestatus, SUM(l_quantity), SUM(l_extendedprice * (1 - "
      "l_discount)), AVG(l_discount), MIN(l_shipdate), MAX(l_tax), COUNT(*) FROM lineitem "
      "WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus "
      "ORDER BY l_returnflag, l_linestatus";
  // Repeated: every execution zeroes its own coordination words. MIN and MAX have
  // identities that are not zero.
  for (int repeat = 0; repeat < 3; ++repeat) {
    GpuRunReport report = checked_gpu_run(q1, GpuStrategy::Auto);
    CHECK(report.init_in_scan);
    CHECK(report.init_ms == 0);
    // The Finalizer was the Scan's programmatic dependent and still read complete states.
    CHECK(report.dependent_finalize);
    CHECK(report.finalize_ms == 0);
  }
  // No GROUP BY and no row passing: the one group's states are the identities.
  CHECK(checked_gpu_run("SELECT COUNT(*), SUM(l_quantity), MIN(l_tax) FROM lineitem WHERE "
                        "l_quantity < 0",
                        GpuStrategy::ThreadPrivate)
            .init_in_scan);
  // Two passes (DOUBLE variance): the first pass sets the states, the second reads them;
  // the Finalizer follows the second pass as an ordinary launch.
  GpuRunReport two_pass = checked_gpu_run(
      "SELECT l_returnflag, COUNT(*), SUM(l_quantity), VAR_SAMP(CAST(l_linenumber AS DOUBLE)) "
      "FROM lineitem GROUP BY l_returnflag ORDER BY l_returnflag",
      GpuStrategy::ThreadPrivate);
  CHECK(two_pass.init_in_scan);
  CHECK_FALSE(two_pass.dependent_finalize);
}

TEST_CASE("init in scan: hash tables keep their Init kernel") {
  GpuRunReport hash = checked_gpu_run(
      "SELECT l_orderkey, SUM(l_quantity) FROM lineitem GROUP BY l_orderkey ORDER BY l_orderkey",
      GpuStrategy::Hash);
  CHECK_FALSE(hash.init_in_scan);
  CHECK_FALSE(hash.dependent_finalize);
}

}  // namespace
}  // namespace tally::cuda::test
