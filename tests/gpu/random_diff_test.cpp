// Randomized differential test: random GROUP BY / aggregate queries (tests/unit/support/
// query_generator.h) run on the CPU engine, the reference, and on the GPU, whose results
// must match. Each query shape runs with 4 sets of `?` parameter values, which share one
// compiled kernel (tally caches NVRTC output by source); the kernels are compiled up front on
// every CPU core into that same in-process cache, so ~1,000 queries take a few minutes at
// most. Strategies rotate by shape: every query runs with "auto", and seven shapes in eight
// also with a forced one: "thread", "block", "direct", "hash", or "hash" from a 64-slot table
// (which fills, grows and reruns).
//
// TALLY_FUZZ_SEED picks other queries (the seed is printed first; a failure prints the seed,
// the query index, its SQL and parameters, and both results); TALLY_FUZZ_SHAPES changes the
// number of shapes (400).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "compiler/bind/binder.h"
#include "compiler/parse/parser.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/gpu/gpu_engine.h"
#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/query_generator.h"
#include "tests/unit/support/result_compare.h"

namespace tally::test {

namespace {

constexpr uint64_t kDefaultSeed = 0x7a11e5eedull;
constexpr size_t kInstances = 4;

struct Variant {
  const char* strategy = "auto";
  uint64_t hash_capacity = 0;
  bool streamed = false;  // columns streamed from host memory in small batches
  std::string label() const {
    std::string text =
        hash_capacity ? fmt::format("{} (capacity {})", strategy, hash_capacity) : strategy;
    return streamed ? text + ", streamed from host memory" : text;
  }
};

// Batches of a streamed variant: the fuzz tables' rows end in a partial batch.
constexpr uint64_t kStreamedBatchRows = 3000;

// "auto" for every shape; by shape, one forced strategy more for seven in eight of them, or
// (the eighth) the columns streamed from host memory.
std::vector<Variant> variants_by_shape(size_t shape) {
  std::vector<Variant> v{{"auto", 0}};
  switch (shape % 8) {
    case 1:
    case 5:
      v.push_back({"thread", 0});
      break;
    case 2:
    case 6:
      v.push_back({"direct", 0});
      break;
    case 3:
      v.push_back({"hash", 64});
      break;
    case 7:
      v.push_back({"hash", 0});
      break;
    case 4:
      v.push_back({"block", 0});
      break;
    default:
      v.push_back({"auto", 0, true});
      break;
  }
  return v;
}

// TALLY_FUZZ_PLACEMENT=host streams every variant.
std::vector<Variant> variants_of(size_t shape) {
  static const char* placement = std::getenv("TALLY_FUZZ_PLACEMENT");
  std::vector<Variant> v = variants_by_shape(shape);
  if (placement != nullptr && std::string(placement) == "host") {
    for (Variant& each : v) each.streamed = true;
  }
  return v;
}

ExecOptions options_for(const Variant& v, DeviceChoice device,
                        std::vector<std::string> parameters) {
  ExecOptions options;
  options.device = device;
  options.strategy = v.strategy;
  options.hash_capacity = v.hash_capacity;
  if (v.streamed) {
    options.placement = "host";
    options.batch_rows = kStreamedBatchRows;
  }
  options.parameters = std::move(parameters);
  return options;
}

struct CompileJob {
  std::shared_ptr<BoundSelect> query;
  std::shared_ptr<std::vector<ColumnStats>> stats;
  GpuPlan plan;
};

// Parses, binds and plans one (shape, variant) as the GPU engine will (nothing if the GPU
// path declines it), for compile_ahead.
void add_compile_jobs(Database& db, const QueryShape& shape, const Variant& v,
                      const GpuCompileOptions& base, std::vector<CompileJob>& jobs) {
  try {
    std::vector<ast::Statement> statements = parse_script(shape.sql);
    const auto& stmt = std::get<ast::SelectStmt>(statements.at(0).body);
    auto query =
        std::make_shared<BoundSelect>(bind_select(stmt, db, statements.at(0).parameter_count));
    TablePtr table = db.table(query->table);
    auto stats = std::make_shared<std::vector<ColumnStats>>(scan_stats(*query, *table));
    GpuCompileOptions options = base;
    options.strategy = strategy_from_name(v.strategy);
    // A small hash table grows 4x per rerun, each size its own kernel: compile those too.
    for (uint64_t c = v.hash_capacity; c <= (1u << 20); c *= 4) {
      options.hash_capacity = c;
      GpuPlan plan = plan_for(*query, *stats, table->rows(), options);
      if (v.streamed) plan = with_streamed_scan(plan, false);
      jobs.push_back({query, stats, plan});
      if (c == 0) break;
    }
  } catch (const Error&) {
    // Declined or invalid: the run reports it.
  }
}

// Compiles every (shape, variant) kernel ahead, NVRTC on all cores, into tally's in-memory
// cache, where the runs find them. Parsing and binding stay on this thread (the ANTLR
// runtime is not known to be thread-safe); code generation and NVRTC run in the pool.
void compile_ahead(Database& db, const std::vector<QueryShape>& shapes) {
  GpuCompileOptions base;
  base.limits = device_limits(cuda::test::test_device().profile());
  base.arch = cuda::test::test_device().profile().arch();
  std::vector<CompileJob> jobs;
  for (size_t s = 0; s < shapes.size(); ++s) {
    for (const Variant& v : variants_of(s)) add_compile_jobs(db, shapes[s], v, base, jobs);
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t j = next++; j < jobs.size(); j = next++) {
      try {
        compile_plan(*jobs[j].query, *jobs[j].stats, jobs[j].plan, base.arch);
      } catch (const Error&) {
        // The run compiles it again and reports what fails.
      }
    }
  };
  unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
}

struct Tally {
  size_t queries = 0;                  // CPU runs (shape instances)
  size_t gpu_runs = 0;                 // GPU runs over all variants
  size_t ran_on_gpu = 0;               // GPU runs that were not declined as Unsupported
  size_t both_raised = 0;              // the CPU and the GPU both raised an error
  size_t gpu_error_of_other_kind = 0;  // ... the GPU's not an Execution error
  size_t mismatches = 0;
  size_t invalid = 0;  // generated queries the CPU rejected (a generator bug)
  std::map<std::string, size_t> unsupported;  // by reason
  size_t unsupported_total() const {
    size_t n = 0;
    for (const auto& [reason, count] : unsupported) n += count;
    return n;
  }
};

std::string outcome_text(const RunOutcome& o) {
  return o.ok ? result_text(o.result)
              : fmt::format("{} error: {}\n", error_kind_name(o.error_kind), o.error);
}

std::string parameters_text(const std::vector<std::string>& parameters) {
  std::string out;
  for (size_t i = 0; i < parameters.size(); ++i) {
    out += fmt::format("{}${}={}", i ? ", " : "", i + 1, parameters[i]);
  }
  return out.empty() ? "none" : out;
}

// One GPU run of a query against the CPU's outcome.
void compare_run(Database& db, const QueryShape& shape, const std::vector<std::string>& parameters,
                 const RunOutcome& cpu, const Variant& variant, const std::string& where,
                 Tally& tally) {
  ++tally.gpu_runs;
  RunOutcome gpu = run_outcome(db, shape.sql, options_for(variant, DeviceChoice::Gpu, parameters));
  if (!gpu.ok && gpu.error_kind == ErrorKind::Unsupported) {
    ++tally.unsupported[unsupported_reason(gpu.error)];
    return;
  }
  ++tally.ran_on_gpu;
  std::string difference;
  if (!cpu.ok && !gpu.ok) {
    ++tally.both_raised;
    if (gpu.error_kind != ErrorKind::Execution) ++tally.gpu_error_of_other_kind;
    return;
  }
  if (cpu.ok != gpu.ok) {
    difference = cpu.ok ? "the GPU raised an error, the CPU did not"
                        : "the CPU raised an error, the GPU did not";
  } else {
    difference = result_difference(cpu.result, gpu.result, shape.tolerances);
  }
  if (difference.empty()) return;
  ++tally.mismatches;
  FAIL_CHECK("random differential mismatch, "
             << where << ", strategy " << variant.label() << ": " << difference
             << "\n  SQL: " << shape.sql << "\n  parameters: " << parameters_text(parameters)
             << "\n  CPU: " << outcome_text(cpu) << "  GPU: " << outcome_text(gpu));
}

std::string summary(const Tally& t, double seconds) {
  std::string reasons;
  for (const auto& [reason, count] : t.unsupported) {
    reasons += fmt::format("{}{}: {}", reasons.empty() ? "" : "; ", reason, count);
  }
  return fmt::format(
      "random differential: {} queries ({} GPU runs), {} ran on GPU ({} raised an error on both, "
      "{} of them not an execution error on the GPU), {} unsupported ({}), {} mismatches, {} "
      "invalid queries, {:.0f} s",
      t.queries, t.gpu_runs, t.ran_on_gpu, t.both_raised, t.gpu_error_of_other_kind,
      t.unsupported_total(), reasons.empty() ? "none" : reasons, t.mismatches, t.invalid, seconds);
}

}  // namespace

TEST_CASE("random differential: GPU against the CPU engine") {
  const uint64_t seed = fuzz_env("TALLY_FUZZ_SEED", kDefaultSeed);
  const size_t shape_count = fuzz_env("TALLY_FUZZ_SHAPES", 400);
  MESSAGE("random differential: base seed " << seed << " (TALLY_FUZZ_SEED), " << shape_count
                                            << " shapes x " << kInstances << " parameter sets");
  auto start = std::chrono::steady_clock::now();
  Database db;
  register_fuzz_tables(db);
  QueryGenerator generator(seed, kInstances);
  std::vector<QueryShape> shapes;
  for (size_t s = 0; s < shape_count; ++s) shapes.push_back(generator.next());
  compile_ahead(db, shapes);

  Tally tally;
  for (size_t s = 0; s < shapes.size(); ++s) {
    const QueryShape& shape = shapes[s];
    for (size_t i = 0; i < shape.instances; ++i) {
      const std::string where = fmt::format("seed {}, query {}.{}", seed, s, i);
      const std::vector<std::string> parameters = shape.parameters_of(i);
      ++tally.queries;
      RunOutcome cpu = run_outcome(db, shape.sql, options_for({}, DeviceChoice::Cpu, parameters));
      if (!cpu.ok && cpu.error_kind != ErrorKind::Execution) {
        ++tally.invalid;
        FAIL_CHECK("the generator wrote a query the CPU engine rejects, "
                   << where << ": " << error_kind_name(cpu.error_kind) << " error: " << cpu.error
                   << "\n  SQL: " << shape.sql);
        continue;
      }
      for (const Variant& v : variants_of(s))
        compare_run(db, shape, parameters, cpu, v, where, tally);
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE(summary(tally, seconds));
  CHECK(tally.mismatches == 0);
  CHECK(tally.invalid == 0);
  CHECK(tally.ran_on_gpu * 2 > tally.gpu_runs);  // the test must mostly exercise the GPU
}

}  // namespace tally::test
