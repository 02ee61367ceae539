// TPC-H Q1 with lineitem resident in GPU memory: tally's generated kernels (kernels only,
// and end to end with the result download and host finish), next to the bytes-read floor
// at the read bandwidth measured in this run, a hand-written Q1 kernel over the same
// encoded columns, and the CPU engine. Medians of --reps runs, device events for kernels.
//   bench_q1 [--sf 1,10] [--reps 20]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>

#include "bench/bench_util.h"
#include "bench/q1_kernels.h"
#include "compiler/bind/binder.h"
#include "compiler/common/date.h"
#include "compiler/parse/parser.h"
#include "runtime/compile/gpu_plan_cache.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/cpu/cpu_engine.h"
#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/module.h"
#include "runtime/cuda/stream.h"
#include "runtime/gpu/device_layout.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/database.h"
#include "tools/data/tpch_lineitem.h"

using namespace tally;
using bench::measure_read_bandwidth;
using bench::median;
using bench::median_kernel_ms;

namespace {

std::string source_dir() {
  const char* env = std::getenv("TALLY_SOURCE_DIR");
  return env ? env : TALLY_SOURCE_DIR;
}

struct HandResult {
  double ms = 0;
  std::vector<unsigned long long> counts;
};

// `shared_tables`: the variant with each thread's table in shared memory (blocks of 128),
// else in registers (blocks of 256).
HandResult run_hand_q1(const Table& t, int reps, int sm_count, bool shared_tables) {
  std::vector<cuda::DeviceBuffer> buffers;
  std::string defines;
  // Uploads a bit-packed column in the device layout and records its width and base for the
  // kernel's #defines.
  auto upload = [&](const char* name, const char* macro) {
    const Column& c = *t.columns[t.schema.find_column(name)];
    if (c.encoding() == Encoding::Plain)
      throw std::runtime_error(fmt::format("{} is not bit-packed", name));
    const auto bits = static_cast<uint32_t>(c.bits());
    const std::vector<uint32_t> words = lane_transposed_words(c.packed_words(), c.size(), bits);
    // Zeroed padding past the last block (16 KiB), as the executor leaves after its columns.
    const size_t bytes = words.size() * sizeof(uint32_t);
    auto& b = buffers.emplace_back(bytes + kLaneBlockRows * 16, name);
    b.fill_bytes(0);
    b.upload(words.data(), bytes);
    defines +=
        fmt::format("#define {}_BITS {}u\n#define {}_BASE {}u\n", macro, bits, macro, c.base());
    return b.ptr();
  };
  auto qty = upload("l_quantity", "QTY"), price = upload("l_extendedprice", "PRICE"),
       disc = upload("l_discount", "DISC"), tax = upload("l_tax", "TAX"),
       flag = upload("l_returnflag", "FLAG"), status = upload("l_linestatus", "STATUS"),
       ship = upload("l_shipdate", "SHIP");
  cuda::DeviceBuffer out(6 * 5 * 16, "hand Q1 sums"), counts(6 * 8, "hand Q1 counts");
  uint32_t block = shared_tables ? 128 : 256;
  // Shared tables: 8 blocks of 128 fill an SM's shared memory; ask ptxas to fit 8 in
  // registers, and launch exactly that one wave (8 blocks per SM), each warp then walking
  // several 1024-row blocks.
  defines += fmt::format("#define BLOCK {}\n#define MIN_BLOCKS {}\n", block, shared_tables ? 8 : 1);
  if (shared_tables) defines += "#define SHARED_TABLES 1\n";
  auto compiled = cuda::compile_cuda(defines + bench::kHandQ1Kernel, "hand_q1.cu");
  cuda::Module module(compiled.image);
  cuda::Kernel kernel = module.kernel("hand_q1");
  cuda::LaunchConfig config;
  config.grid = static_cast<uint32_t>(sm_count) * 8;
  config.block = block;
  auto cutoff = static_cast<unsigned>(days_from_civil(1998, 12, 1) - 90);
  unsigned long long rows = t.rows();
  double ms = median_kernel_ms(
      reps,
      [&] {
        out.fill_bytes(0);
        counts.fill_bytes(0);
      },
      [&] {
        cuda::launch(kernel, config, qty, price, disc, tax, flag, status, ship, rows, cutoff,
                     out.ptr(), counts.ptr());
      });
  HandResult r;
  r.ms = ms;
  r.counts = counts.download_vector<unsigned long long>(6);
  return r;
}

void bench_sf(double sf, int reps, double bandwidth_gbs, const std::string& device, int sm_count) {
  auto gen_start = std::chrono::steady_clock::now();
  TablePtr table = generate_lineitem(sf, 0);
  double gen_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - gen_start).count();
  Database db;
  db.put_table(table);
  auto statements = parse_script(bench::read_file(source_dir() + "/queries/tpch_q1.sql"));
  BoundSelect q1 = bind_select(std::get<ast::SelectStmt>(statements[0].body), db, 0);
  size_t bytes = 0;
  for (const auto& sc : q1.scan) bytes += table->columns[sc.table_column]->encoded_bytes();
  double floor_ms = static_cast<double>(bytes) / (bandwidth_gbs * 1e9) * 1e3;

  GpuEngine engine;
  std::vector<double> kernel_ms, e2e_ms, codegen_ms, upload_ms, download_ms;
  Result gpu_result;
  for (int i = 0; i < reps + 2; ++i) {
    GpuRunReport report;
    auto start = std::chrono::steady_clock::now();
    gpu_result = engine.run(q1, *table, {}, std::make_shared<StringHeap>(), {}, &report);
    double wall =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (i < 2) continue;  // warm-up: NVRTC, column upload
    kernel_ms.push_back(report.init_ms + report.scan_ms + report.finalize_ms);
    e2e_ms.push_back(wall);
    codegen_ms.push_back(report.codegen_ms);
    upload_ms.push_back(report.upload_ms);
    download_ms.push_back(report.download_ms);
  }
  // A prepared statement's plan cache skips code generation when the plan comes out as before.
  GpuPlanCache plans;
  GpuRunOptions prepared;
  prepared.plans = &plans;
  std::vector<double> prepared_ms;
  for (int i = 0; i < reps + 1; ++i) {
    auto start = std::chrono::steady_clock::now();
    engine.run(q1, *table, {}, std::make_shared<StringHeap>(), prepared);
    double wall =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (i > 0) prepared_ms.push_back(wall);  // the first fills the cache
  }
  HandResult hand_registers = run_hand_q1(*table, reps, sm_count, false);
  HandResult hand_shared = run_hand_q1(*table, reps, sm_count, true);
  // The peer is the faster of the two hand-written variants.
  const HandResult& hand = hand_shared.ms < hand_registers.ms ? hand_shared : hand_registers;
  // The peer must compute the same thing: its counts per (flag, status) slot equal tally's.
  size_t count_column = gpu_result.names.size() - 1;
  unsigned long long tally_rows = 0, hand_rows = 0;
  for (const auto& row : gpu_result.rows)
    tally_rows += static_cast<unsigned long long>(row[count_column].i);
  for (auto c : hand.counts) hand_rows += c;
  unsigned long long other_rows = 0;
  for (auto c : (&hand == &hand_shared ? hand_registers : hand_shared).counts) other_rows += c;
  if (other_rows != hand_rows) fmt::print("  WARNING: the two hand-written variants disagree\n");
  std::vector<double> cpu_ms;
  Result cpu_result;
  for (int i = 0; i < 3; ++i) {
    auto start = std::chrono::steady_clock::now();
    cpu_result = run_cpu(q1, table.get(), {});
    cpu_ms.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
  bool same = cpu_result.rows.size() == gpu_result.rows.size();
  for (size_t r = 0; same && r < cpu_result.rows.size(); ++r) {
    for (size_t c = 0; c < cpu_result.names.size(); ++c)
      same &= cpu_result.cell_text(r, c) == gpu_result.cell_text(r, c);
  }
  double k = median(kernel_ms), e = median(e2e_ms), c = median(cpu_ms);
  fmt::print(
      "\nTPC-H Q1, SF {} ({} rows, {:.1f} MB of encoded columns read, generated in {:.1f} s) on "
      "{}\n",
      sf, table->rows(), bytes / 1e6, gen_s, device);
  fmt::print("  {:<40} {:>10} {:>10} {:>10}\n", "", "ms", "x floor", "x hand");
  auto line = [&](const char* what, double ms) {
    fmt::print("  {:<40} {:>10.3f} {:>10.2f} {:>10.2f}\n", what, ms, ms / floor_ms, ms / hand.ms);
  };
  line("floor (bytes / measured read bandwidth)", floor_ms);
  line("hand-written Q1, register tables", hand_registers.ms);
  line("hand-written Q1, shared-memory tables", hand_shared.ms);
  line("tally kernels (init + scan + finalize)", k);
  line("tally end to end (with download, host)", e);
  line("tally end to end, prepared (plan cache)", median(prepared_ms));
  // Where the host time of one run goes (medians; "rest" is plan, launch and host finish).
  const double cg = median(codegen_ms), up = median(upload_ms), down = median(download_ms);
  fmt::print("  {:<40} codegen {:.3f}, upload {:.3f}, download {:.3f}, rest {:.3f} ms\n",
             "  of which, on the host", cg, up, down, e - k - cg - up - down);
  line("CPU engine (all cores)", c);
  fmt::print("  results: tally GPU == CPU engine: {}; hand-written kernel rows {} vs tally {}\n",
             same ? "yes" : "NO", hand_rows, tally_rows);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> sfs = {1, 10};
  int reps = 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--reps") reps = std::atoi(argv[i + 1]);
    if (a == "--sf") {
      sfs.clear();
      std::stringstream s(argv[i + 1]);
      for (std::string x; std::getline(s, x, ',');) sfs.push_back(std::stod(x));
    }
  }
  if (!cuda::gpu_available()) {
    fmt::print("bench_q1: no GPU available\n");
    return 1;
  }
  cuda::Device device(0);
  int sms = device.profile().sm_count;
  double bw = measure_read_bandwidth(reps, sms);
  fmt::print("read bandwidth (int4 loads, 4 GiB, median of {}): {:.0f} GB/s on {}\n", reps, bw,
             device.profile().name);
  for (double sf : sfs) bench_sf(sf, reps, bw, device.profile().name, sms);
  return 0;
}
