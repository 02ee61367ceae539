// TPC-H Q1 over lineitem's columns in pinned host memory, streamed to the GPU in batches
// (issue 17): tally's streamed run next to the bus floor of its own encoded bytes (at 54 GB/s,
// and at the rate a copy-only pass over the same bytes reaches in this run), that copy-only
// pass, the same query GPU-resident, co-processing with the CPU engine, and (on a host with
// several GPUs) the table split across them. Medians of --reps runs after warm-ups.
//   stream_q1 [--sf 10,100] [--reps 5]
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include "bench/bench_util.h"
#include "compiler/bind/binder.h"
#include "compiler/parse/parser.h"
#include "runtime/compile/gpu_plan_cache.h"
#include "runtime/cpu/cpu_engine.h"
#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "runtime/gpu/coprocess.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/gpu/host_columns.h"
#include "runtime/gpu/multi_gpu.h"
#include "runtime/gpu/streamed_scan.h"
#include "runtime/session/database.h"
#include "tools/data/tpch_lineitem.h"

using namespace tally;
using bench::median;

namespace {

constexpr double kBusGbs = 54.0;  // pinned host-to-device copies on these hosts (PCIe Gen5)

std::string source_dir() {
  const char* env = std::getenv("TALLY_SOURCE_DIR");
  return env ? env : TALLY_SOURCE_DIR;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Copies of the same host-resident bytes in Tomé's batches (2^24 rows, 4 streams), no kernel.
double copy_only_ms(const std::vector<const HostColumn*>& columns, uint64_t rows, int reps) {
  cuda::Device device(0);
  cuda::BufferPool pool;
  const StreamShape shape = choose_stream_shape(rows, 0, 0, 0, uint64_t{1} << 24);
  BatchStreamer streamer(device, pool, columns, 0, rows, shape);
  std::vector<double> ms;
  for (int i = 0; i < reps + 1; ++i) {
    auto start = std::chrono::steady_clock::now();
    streamer.stream([](const ScanBatch&, const cuda::Stream&) {});
    if (i > 0) ms.push_back(ms_since(start));
  }
  return median(ms);
}

struct Runs {
  double wall_ms = 0, scan_ms = 0;
  std::string placement;
  Result result;
};

// `plans`: a prepared statement's plan cache (code generation skipped after the first run).
Runs run_q1(GpuEngine& engine, const BoundSelect& q1, const Table& table, Placement placement,
            int reps, GpuPlanCache* plans = nullptr) {
  GpuRunOptions options;
  options.placement = placement;
  options.plans = plans;
  std::vector<double> wall, scan;
  Runs r;
  for (int i = 0; i < reps + 1; ++i) {
    GpuRunReport report;
    auto start = std::chrono::steady_clock::now();
    r.result = engine.run(q1, table, {}, std::make_shared<StringHeap>(), options, &report);
    if (i == 0) continue;  // warm-up: NVRTC, the host-resident copy or the upload
    wall.push_back(ms_since(start));
    scan.push_back(report.init_ms + report.scan_ms + report.finalize_ms);
    r.placement = report.placement;
  }
  r.wall_ms = median(wall);
  r.scan_ms = median(scan);
  return r;
}

// Q1 with the CPU engine taking chunks from the back of the GPU's queue of batches (one
// warm-up run: the kernels compile there, while the CPU takes rows).
double coprocessed_ms(GpuEngine& engine, const BoundSelect& q1, const Table& table, int reps,
                      CoprocessReport& last, Result& result) {
  std::vector<double> ms;
  for (int i = 0; i < reps + 1; ++i) {
    auto start = std::chrono::steady_clock::now();
    result = run_coprocessed(engine, q1, table, {}, std::make_shared<StringHeap>(), {}, &last);
    if (i >= 1) ms.push_back(ms_since(start));
  }
  return median(ms);
}

// Q1 split across every GPU of the host, each part resident or streamed.
double split_ms(std::vector<GpuEngine*>& engines, const BoundSelect& q1, const Table& table,
                Placement placement, int reps, Result& result, GpuPlanCache* plans = nullptr,
                std::vector<GpuRunReport>* reports = nullptr) {
  GpuRunOptions options;
  options.placement = placement;
  options.plans = plans;
  std::vector<double> ms;
  for (int i = 0; i < reps + 1; ++i) {
    auto start = std::chrono::steady_clock::now();
    result = run_on_gpus(engines, q1, table, {}, std::make_shared<StringHeap>(), options, reports);
    if (i >= 1) ms.push_back(ms_since(start));
  }
  return median(ms);
}

bool same_rows(const Result& a, const Result& b) {
  if (a.rows.size() != b.rows.size()) return false;
  for (size_t r = 0; r < a.rows.size(); ++r) {
    for (size_t c = 0; c < a.types.size(); ++c) {
      if (a.cell_text(r, c) != b.cell_text(r, c)) return false;
    }
  }
  return true;
}

void bench_sf(double sf, int reps) {
  auto gen_start = std::chrono::steady_clock::now();
  TablePtr table = generate_lineitem(sf, 0);
  const double gen_s = ms_since(gen_start) / 1e3;
  Database db;
  db.put_table(table);
  auto statements = parse_script(bench::read_file(source_dir() + "/queries/tpch_q1.sql"));
  BoundSelect q1 = bind_select(std::get<ast::SelectStmt>(statements[0].body), db, 0);

  std::vector<HostColumn> host;
  for (const auto& sc : q1.scan) host.push_back(make_host_column(table->columns[sc.table_column]));
  std::vector<const HostColumn*> columns;
  uint64_t bytes = 0;
  for (const HostColumn& h : host) {
    columns.push_back(&h);
    bytes += h.data_bytes + h.validity.size();
  }
  const double copy_ms = copy_only_ms(columns, table->rows(), reps);
  const double floor_ms = static_cast<double>(bytes) / (kBusGbs * 1e9) * 1e3;

  GpuEngine engine;
  Runs streamed = run_q1(engine, q1, *table, Placement::Host, reps);
  Runs resident = run_q1(engine, q1, *table, Placement::Device, reps);
  CpuOptions cpu_options;
  auto cpu_start = std::chrono::steady_clock::now();
  Result cpu = run_cpu(q1, table.get(), {}, cpu_options);
  const double cpu_ms = ms_since(cpu_start);

  fmt::print(
      "SF {}: {} rows, Q1's encoded columns {:.1f} MB ({:.2f} B/row), generated in {:.1f} s\n", sf,
      table->rows(), bytes / 1e6, static_cast<double>(bytes) / table->rows(), gen_s);
  auto line = [&](const char* what, double ms) {
    fmt::print("  {:<44} {:9.2f} ms  {:5.2f}x bus floor  {:5.2f}x copy-only\n", what, ms,
               ms / floor_ms, ms / copy_ms);
  };
  fmt::print("  bus floor at {:.0f} GB/s                        {:9.2f} ms\n", kBusGbs, floor_ms);
  line("copy-only pass (2^24-row batches, 4 streams)", copy_ms);
  fmt::print("    (copy-only rate {:.1f} GB/s)\n", bytes / 1e6 / copy_ms);
  line("tally streamed, whole run", streamed.wall_ms);
  line("tally streamed, init + batches + finalize", streamed.scan_ms);
  fmt::print("    ({})\n", streamed.placement);
  line("tally GPU-resident, whole run", resident.wall_ms);
  line("tally GPU-resident, kernels", resident.scan_ms);
  line("CPU engine (all cores)", cpu_ms);
  CoprocessReport co;
  Result co_result;
  const double co_ms = coprocessed_ms(engine, q1, *table, reps, co, co_result);
  line("tally streamed + CPU engine (co-processing)", co_ms);
  fmt::print(
      "    (last run: CPU {:.1f}% of rows in {} chunks; GPU part {:.2f} ms, CPU part {:.2f} ms)\n",
      100.0 * co.cpu_rows / table->rows(), co.cpu_chunks, co.gpu_part_ms, co.cpu_part_ms);
  fmt::print(
      "  results: streamed == CPU engine: {}; resident == CPU engine: {}; co-processed == "
      "CPU engine: {}\n",
      same_rows(streamed.result, cpu) ? "yes" : "NO",
      same_rows(resident.result, cpu) ? "yes" : "NO", same_rows(co_result, cpu) ? "yes" : "NO");
  const int gpus = cuda::device_count();
  if (gpus < 2) {
    fmt::print("  several GPUs: this host has one GPU, not measured\n");
    return;
  }
  std::vector<std::unique_ptr<GpuEngine>> owned;
  std::vector<GpuEngine*> engines;
  for (int d = 0; d < gpus; ++d)
    engines.push_back(owned.emplace_back(std::make_unique<GpuEngine>(d)).get());
  Result split_resident, split_streamed;
  const double resident_ms = split_ms(engines, q1, *table, Placement::Device, reps, split_resident);
  const double streamed_ms = split_ms(engines, q1, *table, Placement::Host, reps, split_streamed);
  fmt::print(
      "  {} GPUs, GPU-resident parts, whole run     {:9.2f} ms  {:5.2f}x one GPU's whole run\n",
      gpus, resident_ms, resident_ms / resident.wall_ms);
  fmt::print(
      "  {} GPUs, streamed parts, whole run         {:9.2f} ms  {:5.2f}x one GPU streamed, "
      "{:5.2f}x bus floor\n",
      gpus, streamed_ms, streamed_ms / streamed.wall_ms, streamed_ms / floor_ms);
  // As a prepared statement runs: the plan cache skips code generation on every part.
  GpuPlanCache one_plans, split_plans;
  Result prepared_one, prepared_split;
  const double one_ms = run_q1(engine, q1, *table, Placement::Device, reps, &one_plans).wall_ms;
  std::vector<GpuRunReport> reports;
  const double two_ms = split_ms(engines, q1, *table, Placement::Device, reps, prepared_split,
                                 &split_plans, &reports);
  for (size_t p = 0; p < reports.size(); ++p) {
    const GpuRunReport& r = reports[p];
    fmt::print(
        "    part {} (last run): plan {:.3f}, codegen {:.3f}, arguments {:.3f}, init {:.3f}, "
        "scan {:.3f}, finalize {:.3f}, download {:.3f} ms\n",
        p, r.plan_ms, r.codegen_ms, r.upload_ms, r.init_ms, r.scan_ms, r.finalize_ms,
        r.download_ms);
  }
  fmt::print("  prepared: one GPU resident {:.2f} ms, {} GPUs {:.2f} ms = {:.2f}x\n", one_ms, gpus,
             two_ms, two_ms / one_ms);
  fmt::print("  results: {} GPUs resident == CPU engine: {}; streamed == CPU engine: {}\n", gpus,
             same_rows(split_resident, cpu) ? "yes" : "NO",
             same_rows(split_streamed, cpu) ? "yes" : "NO");
  fmt::print("  results: prepared {} GPUs == CPU engine: {}\n", gpus,
             same_rows(prepared_split, cpu) ? "yes" : "NO");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> sfs = {10};
  int reps = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--reps") reps = std::atoi(argv[i + 1]);
    if (a == "--sf") {
      sfs.clear();
      std::stringstream s(argv[i + 1]);
      for (std::string x; std::getline(s, x, ',');) sfs.push_back(std::stod(x));
    }
  }
  try {
    cuda::Device device(0);
    fmt::print("stream_q1 on {}\n", device.profile().name);
    for (double sf : sfs) bench_sf(sf, reps);
  } catch (const std::exception& e) {
    fmt::print(stderr, "stream_q1: {}\n", e.what());
    return 1;
  }
  return 0;
}
