// Compile latency of every query in queries/: what a statement costs before its kernels
// launch, in three states of the caches.
//   cold:  statistics, plan, code generation and NVRTC (no cache at all); with a GPU, also
//          cuModuleLoadData of the binary.
//   quick: the same for the quick kernels a new statement runs first under SET quick_kernels
//          (runtime/compile/kernel_tiers.h): the cold time where the Scan has one tier.
//   warm:  a second execution of the prepared statement in the same process (the plan
//          cache hit: statistics, plan, fingerprint, lookup).
//   disk:  a fresh process (this binary re-run with --child-disk) that prepares the
//          statement and finds the binary in the disk kernel cache the cold pass filled:
//          parse, bind, statistics, plan, code generation, key, load and verify; with a
//          GPU, also cuModuleLoadData. Like every tally command, it warms the parser and
//          hashes the device library while its tables load; a footnote gives the same
//          without that warm-up.
// p50 and p95 over --reps repetitions, per query and over all samples. Without a GPU the
// kernels are compiled for sm_90.
//   compile_latency [--reps 5] [--nvrtc-option OPT]... [--arch compute_90]
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/common/elapsed.h"
#include "compiler/common/error.h"
#include "compiler/parse/parser.h"
#include "compiler/plan/lifted_constants.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/compile/kernel_cache_key.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/cuda/device.h"
#include "runtime/cuda/module.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/database.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

using namespace tally;
namespace fs = std::filesystem;

namespace {

struct Args {
  int reps = 5;
  std::vector<std::string> nvrtc_options;  // appended to the cold compile's options
  std::string arch;                        // empty: the GPU's, else default_gpu_target()'s
  bool child_disk = false;
  bool child_warm_up = false;  // the child warms up as the CLI does (cli/parser_warm_up.h)
};

Args parse_args(int argc, char** argv) {
  Args args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return std::string(argv[++i]);
    };
    if (a == "--reps") {
      args.reps = std::max(1, std::stoi(value()));
    } else if (a == "--nvrtc-option") {
      args.nvrtc_options.push_back(value());
    } else if (a == "--arch") {
      args.arch = value();
    } else if (a == "--child-disk") {
      args.child_disk = true;
    } else if (a == "--warm-up") {
      args.child_warm_up = true;
    } else {
      throw std::runtime_error("unknown argument " + a);
    }
  }
  return args;
}

std::string source_dir() {
  const char* env = std::getenv("TALLY_SOURCE_DIR");
  return env ? env : TALLY_SOURCE_DIR;
}

// The tables the queries read, as tests/unit/codegen_test.cpp builds them.
void add_tables(Database& db) {
  db.put_table(generate_lineitem(0.01, 3));
  db.put_table(generate_orders_table(5000, 100, 3));
  db.put_table(generate_atable(5000, 1u << 20, 0, 3));
  db.put_table(generate_nulls_table(5000, 0.2, 3));
}

struct Query {
  std::string name;
  std::string sql;
};

std::vector<Query> read_queries() {
  std::vector<Query> queries;
  for (const auto& item : fs::directory_iterator(source_dir() + "/queries")) {
    if (item.path().extension() != ".sql") continue;
    std::ifstream in(item.path());
    std::ostringstream text;
    text << in.rdbuf();
    queries.push_back({item.path().stem().string(), text.str()});
  }
  std::sort(queries.begin(), queries.end(),
            [](const Query& a, const Query& b) { return a.name < b.name; });
  return queries;
}

// The GPU in hand, if any: its arch, its planner limits, and a context to load modules in.
struct Target {
  std::unique_ptr<GpuEngine> gpu;
  std::string arch = default_gpu_target().arch;
  GpuCompileOptions options;
};

Target open_target(const std::string& arch) {
  Target t;
  if (!cuda::why_gpu_unusable()) {
    t.gpu = std::make_unique<GpuEngine>();
    t.arch = t.gpu->arch();
    t.options.limits = t.gpu->limits();
  }
  if (!arch.empty()) t.arch = arch;
  t.options.arch = t.arch;
  return t;
}

// cuModuleLoadData of `binary`, when there is a GPU. The unload runs after the clock stops:
// a statement keeps its module loaded (the engine's module cache), so it never pays for one.
double module_load_ms(const Target& target, const cuda::CompiledKernel& binary) {
  if (!target.gpu) return 0;
  auto start = std::chrono::steady_clock::now();
  cuda::Module module(binary.image);
  return ms_since(start);
}

// A statement as a run compiles it (Database::compile_select): its compared constants lifted
// out of the kernels (compiler/plan/lifted_constants.h), their values known to the planner
// where the statement has no `?` of its own.
struct AsRun {
  BoundSelect query;
  std::vector<Value> parameters;
  GpuCompileOptions base;
  GpuCompileOptions options() const {
    GpuCompileOptions o = base;
    if (!parameters.empty()) o.parameters = &parameters;
    return o;
  }
};

AsRun as_run(const BoundSelect& bound, const Target& target) {
  AsRun r{bound, {}, target.options};
  auto lifted = lift_compared_constants(bound);
  if (lifted) r.query = lifted->query;
  r.parameters = lifted_parameters(bound, {}, lifted.get());
  return r;
}

struct Prepared {
  Query query;
  std::shared_ptr<const PreparedSelect> statement;
  TablePtr table;
  std::string skipped;  // why the query is not measured
};

std::vector<Prepared> prepare_all(Database& db, const std::vector<Query>& queries,
                                  const Target& target) {
  std::vector<Prepared> out;
  for (const Query& q : queries) {
    Prepared p{q, nullptr, nullptr, ""};
    try {
      p.statement = db.prepare(q.sql);
      if (p.statement->query.table.empty()) throw Error(ErrorKind::Unsupported, "no FROM");
      p.table = db.table(p.statement->query.table);
      // Throws Error(Unsupported) for what the GPU path does not run.
      const AsRun run = as_run(p.statement->query, target);
      auto stats = scan_stats(run.query, *p.table);
      generate_cuda(run.query, plan_for(run.query, stats, p.table->rows(), run.options()), stats);
    } catch (const Error& e) {
      p.skipped = e.what();
    }
    out.push_back(std::move(p));
  }
  return out;
}

// ---- the child: one fresh process, one disk-cache hit per query ----

int run_child(const Args& args) {
  // As every tally command does while its data loads (cli/parser_warm_up.h): ANTLR's
  // prediction caches filled from generic statements, the device library hashed.
  std::future<size_t> warm_up;
  if (args.child_warm_up) {
    warm_up = std::async(std::launch::async, [] {
      KernelCacheKeyInputs::device_library_digest();
      return warm_up_parser();
    });
  }
  Database db;
  add_tables(db);
  Target target = open_target(args.arch);
  if (warm_up.valid()) warm_up.get();
  for (const Query& q : read_queries()) {
    auto start = std::chrono::steady_clock::now();
    std::shared_ptr<const PreparedSelect> statement;
    try {
      statement = db.prepare(q.sql);
    } catch (const Error&) {
      continue;
    }
    const double prepare_ms = ms_since(start);
    TablePtr table = statement->query.table.empty() ? nullptr : db.table(statement->query.table);
    if (!table) continue;
    try {
      const AsRun run = as_run(statement->query, target);
      auto stats = scan_stats(run.query, *table);
      GpuPlan plan = plan_for(run.query, stats, table->rows(), run.options());
      GpuCompilation c = compile_plan(run.query, stats, plan, target.arch);
      double load = module_load_ms(target, *c.binary);
      fmt::print("query {} {:.3f} {:.3f} {:.3f} {} {:.3f} {:.3f}\n", q.name, ms_since(start),
                 c.disk_load_ms, load, c.source == BinarySource::DiskCache ? "disk" : "miss",
                 prepare_ms, c.codegen_ms);
    } catch (const Error&) {
      continue;
    }
  }
  // The disk key's NVRTC version comes from the cache's stamp: hits never load libnvrtc.
  fmt::print("nvrtc-loaded {}\n", cuda::nvrtc_loaded() ? 1 : 0);
  return 0;
}

// ---- the parent ----

struct Samples {
  std::vector<double> cold, quick, codegen, nvrtc, module, warm, disk, disk_load;
  std::vector<double> disk_prepare, disk_codegen, disk_module;  // parts of a disk hit
  std::vector<double> disk_unwarmed;                            // a child that does not warm up
  std::string disk_misses;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t index = static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(index, v.size() - 1)];
}

// A new statement's wait under quick kernels: statistics and plan (`plan_ms`), then the
// quick Scan's code generation, NVRTC and load; `cold_ms` where the Scan has one tier.
double quick_ms(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                const GpuPlan& plan, const GpuProgram& unrolled,
                const cuda::CompileOptions& options, const Target& target, double plan_ms,
                double cold_ms) {
  GpuPlan quick = plan;
  quick.quick_scan = true;
  auto start = std::chrono::steady_clock::now();
  GpuProgram program = generate_cuda(query, quick, stats);
  if (program.source == unrolled.source) return cold_ms;
  cuda::CompiledKernel binary = cuda::compile_cuda(program.source, "tally_query.cu", options);
  return plan_ms + ms_since(start) + module_load_ms(target, binary);
}

void measure_cold(const Prepared& p, const Target& target, const Args& args, Samples& s) {
  cuda::CompileOptions options;
  options.arch = target.arch;
  options.extra = args.nvrtc_options;
  for (int r = 0; r < args.reps; ++r) {
    auto start = std::chrono::steady_clock::now();
    const AsRun run = as_run(p.statement->query, target);
    const BoundSelect& query = run.query;
    auto stats = scan_stats(query, *p.table);
    GpuPlan plan = plan_for(query, stats, p.table->rows(), run.options());
    auto codegen_start = std::chrono::steady_clock::now();
    const double plan_ms = ms_since(start);
    GpuProgram program = generate_cuda(query, plan, stats);
    s.codegen.push_back(ms_since(codegen_start));
    cuda::CompiledKernel binary = cuda::compile_cuda(program.source, "tally_query.cu", options);
    s.nvrtc.push_back(binary.compile_ms);
    double load = module_load_ms(target, binary);
    s.module.push_back(load);
    s.cold.push_back(ms_since(start));
    s.quick.push_back(
        quick_ms(query, stats, plan, program, options, target, plan_ms, s.cold.back()));
  }
}

// The first execution fills the plan cache (and, through compile_plan, the disk cache);
// the measured ones hit the plan cache.
void measure_warm(Database& db, const Prepared& p, const Target& target, const Args& args,
                  Samples& s) {
  ExecOptions options;
  options.compile_only = true;
  options.arch = target.arch;
  db.execute_prepared(*p.statement, options);
  for (int r = 0; r < args.reps; ++r) {
    auto start = std::chrono::steady_clock::now();
    StatementOutcome o = db.execute_prepared(*p.statement, options);
    s.warm.push_back(ms_since(start));
    if (o.timings.gpu.find("(plan cache)") == std::string::npos) {
      throw std::runtime_error(p.query.name + ": the warm execution missed the plan cache");
    }
  }
}

// Runs the child `reps` times; fills each query's disk samples (`warm_up`: of a child that
// warms up as the CLI does, else disk_unwarmed) and returns the library load times.
std::vector<double> measure_disk(const Args& args, std::map<std::string, Samples>& samples,
                                 bool warm_up) {
  std::vector<double> library_loads;
  // This very binary, by /proc/self/exe (read here: in popen's shell it names the shell).
  std::string command =
      fmt::format("'{}' --child-disk", fs::read_symlink("/proc/self/exe").string());
  if (!args.arch.empty()) command += " --arch " + args.arch;
  if (warm_up) command += " --warm-up";
  for (int r = 0; r < args.reps; ++r) {
    FILE* child = popen(command.c_str(), "r");
    if (!child) throw std::runtime_error("cannot start the child process");
    char buffer[512];
    while (fgets(buffer, sizeof buffer, child)) {
      std::istringstream line(buffer);
      std::string kind, name, source;
      line >> kind;
      if (kind == "nvrtc-loaded") {
        double loaded = 0;
        line >> loaded;
        library_loads.push_back(loaded);
        continue;
      }
      double total = 0, disk_load = 0, module = 0, prepare = 0, codegen = 0;
      line >> name >> total >> disk_load >> module >> source >> prepare >> codegen;
      auto it = samples.find(name);
      if (it == samples.end()) continue;
      if (!warm_up) {
        it->second.disk_unwarmed.push_back(total);
        continue;
      }
      it->second.disk.push_back(total);
      it->second.disk_load.push_back(disk_load);
      it->second.disk_prepare.push_back(prepare);
      it->second.disk_codegen.push_back(codegen);
      it->second.disk_module.push_back(module);
      if (source != "disk") it->second.disk_misses = " (MISSED the disk cache)";
    }
    if (pclose(child) != 0) throw std::runtime_error("the child process failed");
  }
  return library_loads;
}

void print_table(const std::vector<Prepared>& prepared, std::map<std::string, Samples>& samples,
                 const std::vector<double>& library_loads, const Target& target, const Args& args) {
  fmt::print("compile latency, {} repetitions, target {}{}{}\n", args.reps, target.arch,
             target.gpu ? ", GPU: " + target.gpu->device_name() : ", no GPU",
             args.nvrtc_options.empty() ? "" : ", extra NVRTC options:");
  for (const auto& o : args.nvrtc_options) fmt::print(" {}", o);
  if (!args.nvrtc_options.empty()) fmt::print("\n");
  fmt::print("{:<20} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>9}\n",
             "query", "cold p50", "cold p95", "quick p50", "quick p95", "codegen", "NVRTC",
             "module", "warm p50", "warm p95", "disk p50", "disk p95", "disk load");
  Samples all;
  auto append = [](std::vector<double>& to, const std::vector<double>& from) {
    to.insert(to.end(), from.begin(), from.end());
  };
  for (const Prepared& p : prepared) {
    if (!p.skipped.empty()) {
      fmt::print("{:<20} skipped: {}\n", p.query.name, p.skipped.substr(0, p.skipped.find('\n')));
      continue;
    }
    Samples& s = samples[p.query.name];
    fmt::print(
        "{:<20} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.2f} {:>9.1f} {:>9.2f} {:>8.3f} {:>8.3f} "
        "{:>8.2f} {:>8.2f} {:>9.3f}{}\n",
        p.query.name, percentile(s.cold, 0.5), percentile(s.cold, 0.95), percentile(s.quick, 0.5),
        percentile(s.quick, 0.95), percentile(s.codegen, 0.5), percentile(s.nvrtc, 0.5),
        percentile(s.module, 0.5), percentile(s.warm, 0.5), percentile(s.warm, 0.95),
        percentile(s.disk, 0.5), percentile(s.disk, 0.95), percentile(s.disk_load, 0.5),
        s.disk_misses);
    append(all.cold, s.cold);
    append(all.quick, s.quick);
    append(all.codegen, s.codegen);
    append(all.nvrtc, s.nvrtc);
    append(all.module, s.module);
    append(all.warm, s.warm);
    append(all.disk, s.disk);
    append(all.disk_load, s.disk_load);
    append(all.disk_prepare, s.disk_prepare);
    append(all.disk_codegen, s.disk_codegen);
    append(all.disk_module, s.disk_module);
    append(all.disk_unwarmed, s.disk_unwarmed);
  }
  fmt::print(
      "{:<20} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.1f} {:>9.2f} {:>9.1f} {:>9.2f} {:>8.3f} {:>8.3f} "
      "{:>8.2f} {:>8.2f} {:>9.3f}\n",
      "all queries", percentile(all.cold, 0.5), percentile(all.cold, 0.95),
      percentile(all.quick, 0.5), percentile(all.quick, 0.95), percentile(all.codegen, 0.5),
      percentile(all.nvrtc, 0.5), percentile(all.module, 0.5), percentile(all.warm, 0.5),
      percentile(all.warm, 0.95), percentile(all.disk, 0.5), percentile(all.disk, 0.95),
      percentile(all.disk_load, 0.5));
  fmt::print(
      "(ms; codegen, NVRTC, module and disk load are p50s of parts of the column before; "
      "libnvrtc was loaded by {:.0f} of {} fresh processes)\n",
      std::accumulate(library_loads.begin(), library_loads.end(), 0.0), library_loads.size());
  fmt::print(
      "(disk, p50 over all queries: parse and bind {:.3f}, code generation {:.3f}, load and "
      "verify {:.3f}, cuModuleLoadData {:.3f})\n",
      percentile(all.disk_prepare, 0.5), percentile(all.disk_codegen, 0.5),
      percentile(all.disk_load, 0.5), percentile(all.disk_module, 0.5));
  fmt::print(
      "(disk in a child that does not warm up while its tables load: p50 {:.2f}, p95 {:.2f})\n",
      percentile(all.disk_unwarmed, 0.5), percentile(all.disk_unwarmed, 0.95));
}

int run_parent(const Args& args) {
  char dir_template[] = "/tmp/tally_compile_latency_XXXXXX";
  if (!mkdtemp(dir_template)) throw std::runtime_error("cannot make a temporary directory");
  fs::path cache_dir = dir_template;
  setenv("TALLY_CACHE_DIR", cache_dir.c_str(), 1);
  unsetenv("TALLY_CACHE_DISABLE");
  Database db;
  add_tables(db);
  Target target = open_target(args.arch);
  std::vector<Prepared> prepared = prepare_all(db, read_queries(), target);
  std::map<std::string, Samples> samples;
  for (const Prepared& p : prepared) {
    if (!p.skipped.empty()) continue;
    Samples& s = samples[p.query.name];
    measure_cold(p, target, args, s);
    measure_warm(db, p, target, args, s);
  }
  std::vector<double> library_loads = measure_disk(args, samples, true);
  measure_disk(args, samples, false);
  print_table(prepared, samples, library_loads, target, args);
  std::error_code ignored;
  fs::remove_all(cache_dir, ignored);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // NVRTC 12.9+ keeps compiled programs in the driver's compute cache (~/.nv), so a
  // repeated compile of the same source would measure that cache, not NVRTC; set
  // CUDA_CACHE_DISABLE=0 to measure with it.
  setenv("CUDA_CACHE_DISABLE", "1", 0);
  try {
    Args args = parse_args(argc, argv);
    return args.child_disk ? run_child(args) : run_parent(args);
  } catch (const std::exception& e) {
    fmt::print(stderr, "compile_latency: {}\n", e.what());
    return 1;
  }
}
