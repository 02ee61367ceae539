// GROUP BY throughput against the number of groups K: the seed paper's Query B,
// SELECT <key> AS g, COUNT(*), SUM(col2) FROM atable GROUP BY <key>, for K = 1 .. 2^24,
// four key kinds and four key distributions (groupby_workload.h), with each of tally's GPU
// strategies forced and with auto, next to hand-written peers over the same data
// (groupby_peers.h) and to the read-bandwidth floor of the columns tally reads, measured in
// the same run. Each method's result is checked against the CPU engine's before it is
// timed (groupby_methods.h); the output is a table per kind and distribution and a CSV
// (groupby_report.h) that bench/plot_groupby_sweep.py draws. The command line is
// groupby_options.h's; bench/run_groupby_sweep.sh runs the quick sweep and its plot.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>

#include "bench/bench_util.h"
#include "bench/groupby_methods.h"
#include "bench/groupby_options.h"
#include "bench/groupby_report.h"
#include "bench/groupby_workload.h"
#include "compiler/bind/binder.h"
#include "compiler/parse/parser.h"
#include "runtime/cuda/device.h"
#include "runtime/session/database.h"

using namespace tally;
using namespace tally::bench;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What stays the same over the whole sweep, and one point's measurements.
struct Sweep {
  const SweepOptions& options;
  Workload& data;
  GpuEngine* engine;     // null with --cpu
  double bandwidth_gbs;  // 0 with --cpu
  SweepReport& report;

  void point(KeyKind kind, const KeyDist& dist, uint64_t k) {
    const Point p = data.point(kind, dist, k);
    Database db;
    db.put_table(p.table);
    auto statements = parse_script(p.sql);
    const BoundSelect q = bind_select(std::get<ast::SelectStmt>(statements.at(0).body), db, 0);
    PointResult result;
    result.kind = key_kind_name(kind);
    result.dist = dist.name;
    result.k = k;
    result.rows = data.rows();
    result.floor.bytes = bytes_read(q, p);
    if (bandwidth_gbs > 0) {
      result.floor.status = Status::Ran;
      result.floor.ms = static_cast<double>(result.floor.bytes) / (bandwidth_gbs * 1e9) * 1e3;
      result.floor.note = fmt::format("{:.1f} MB read at {:.0f} GB/s",
                                      static_cast<double>(result.floor.bytes) / 1e6, bandwidth_gbs);
    }
    GroupTotals cpu_totals;
    Measured cpu = run_cpu_engine(q, p, kind, cpu_totals);
    Reference ref;
    if (!options.cpu && cpu.status == Status::Ran) {
      ref = {"the CPU engine", std::move(cpu_totals)};
    } else {
      // --cpu (the CPU engine is what is measured) or a CPU engine that failed: a host
      // loop over the point's own keys is the reference.
      ref = {"a host loop", host_totals(p, data.values())};
      if (cpu.status == Status::Ran) check_against(cpu, ref, cpu_totals);
    }
    const Timing timing{options.warmup, options.reps};
    if (!options.cpu) {
      for (const auto& s : options.strategies) {
        result.methods.push_back(run_tally(*engine, q, p, kind, s, timing, ref));
      }
      for (auto& m : run_peers(p, timing, ref)) result.methods.push_back(std::move(m));
    }
    result.methods.push_back(std::move(cpu));
    report.point(result);
  }
};

int run(const SweepOptions& o) {
  const auto start = Clock::now();
  std::unique_ptr<GpuEngine> engine;
  double bandwidth = 0;
  if (!o.cpu) {
    engine = std::make_unique<GpuEngine>();
    const cuda::DeviceProfile profile = cuda::read_profile(0);
    bandwidth = measure_read_bandwidth(o.reps, profile.sm_count);
    fmt::print("read bandwidth (int4 loads, 4 GiB, median of {}): {:.0f} GB/s on {}\n", o.reps,
               bandwidth, profile.name);
  }
  const std::vector<std::string> peers = peer_names();
  const std::vector<uint64_t> ks = o.k_values();
  const size_t points = ks.size() * o.kinds.size() * o.dists.size();
  fmt::print(
      "{} points: K = {} .. {} (x{}), {} kinds, {} distributions; {} rows; {}; peers: {}\n", points,
      ks.front(), ks.back(), o.k_step, o.kinds.size(), o.dists.size(), o.rows,
      o.cpu ? std::string("the CPU engine only (--cpu)")
            : fmt::format("the checked run, {} warm-up and {} timed runs each", o.warmup, o.reps),
      o.cpu           ? "none (--cpu)"
      : peers.empty() ? "not built (no CUDA compiler)"
                      : fmt::format("{} (8 B/row read)", fmt::join(peers, ", ")));
  Workload data(o.rows, o.k_max, o.seed);
  fmt::print("col2 generated in {:.1f} s; mod, two and string keys reduce a col1 over [0, {})\n",
             data.generation_s(), data.base_range());
  if (!o.cpu) peers_set_values(data.values());
  SweepReport report(o.csv);
  Sweep sweep{o, data, engine.get(), bandwidth, report};
  size_t measured = 0;
  auto out_of_time = [&] { return o.time_limit_s > 0 && seconds_since(start) > o.time_limit_s; };
  for (const auto& dist_name : o.dists) {
    const KeyDist dist = key_dist_from_name(dist_name);
    data.keep_only(dist);
    for (const auto& kind_name : o.kinds) {
      if (out_of_time()) break;
      const KeyKind kind = key_kind_from_name(kind_name);
      const auto block_start = Clock::now();
      const double generation_before = data.generation_s();
      report.block_header(kind_name, dist_name, data.rows(), !o.cpu);
      for (uint64_t k : ks) {
        if (out_of_time()) break;
        try {
          sweep.point(kind, dist, k);
        } catch (const std::exception& e) {  // the rest of the sweep still runs
          report.point_failed(kind_name, dist_name, k, e.what());
        }
        ++measured;
      }
      fmt::print("  ({} keys, {}: {:.1f} s, of which {:.1f} s generating data)\n", kind_name,
                 dist_name, seconds_since(block_start), data.generation_s() - generation_before);
    }
  }
  if (!o.cpu) peers_release();
  fmt::print("\ntotal {:.1f} s, of which {:.1f} s generating data; {} of {} points measured",
             seconds_since(start), data.generation_s(), measured, points);
  if (measured < points) {
    fmt::print(" (the time limit of {:.0f} s was reached: the rest were not started)",
               o.time_limit_s);
  }
  fmt::print("; {} wrong results, {} failures\n", report.wrong(), report.failed());
  return report.wrong() > 0 || report.failed() > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  SweepOptions options;
  try {
    options = parse_sweep_options(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "groupby_sweep: {}\n{}", e.what(), kSweepUsage);
    return 2;
  }
  if (options.help) {
    fmt::print("{}", kSweepUsage);
    return 0;
  }
  if (!options.cpu) {
    // Not a failure: the sweep has nothing to measure here, and a script that runs every
    // benchmark should go on (--cpu still checks the queries and the data).
    if (const auto why = cuda::why_gpu_unusable()) {
      fmt::print("groupby_sweep: no GPU: {}; nothing measured (--cpu runs the CPU engine alone)\n",
                 *why);
      return 0;
    }
  }
  try {
    return run(options);
  } catch (const std::exception& e) {
    fmt::print(stderr, "groupby_sweep: {}\n", e.what());
    return 1;
  }
}
