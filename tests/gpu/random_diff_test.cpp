// Randomized differential test: random GROUP BY / aggregate queries (tests/unit/support/
// query_generator.h) run on the CPU engine, the reference, and on the GPU, whose results
// must match. Each query shape runs with 4 sets of `?` parameter values, which share one
// compiled kernel (tally caches NVRTC output by source); the kernels are compiled up front on
// every CPU core (compile_only fills the same in-process cache), so ~1,000 queries take a
// few minutes at most. Strategies rotate by shape: every query runs with "auto", and a
// quarter of the shapes also with "thread", "direct", or "hash" from a 64-slot table (which
// grows and reruns).
//
// TALLY_FUZZ_SEED picks other queries (the seed is printed first; a failure prints the seed,
// the query index, its SQL and parameters, and both results); TALLY_FUZZ_SHAPES changes the
// number of shapes (250).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "tests/gpu/gpu_support.h"
#include "tests/unit/support/query_generator.h"
#include "tests/unit/support/result_compare.h"

namespace tally::test {

namespace {

constexpr uint64_t kDefaultSeed = 0x7a11e5eedull;
constexpr size_t kInstances = 4;

uint64_t env_number(const char* name, uint64_t fallback) {
  const char* text = std::getenv(name);
  return text && *text ? std::strtoull(text, nullptr, 0) : fallback;
}

struct Variant {
  const char* strategy = "auto";
  uint64_t hash_capacity = 0;
  std::string label() const {
    return hash_capacity ? fmt::format("{} (capacity {})", strategy, hash_capacity) : strategy;
  }
};

// "auto" for every shape; by shape, one forced strategy more for half of them.
std::vector<Variant> variants_of(size_t shape) {
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
    default:
      break;
  }
  return v;
}

ExecOptions options_for(const Variant& v, DeviceChoice device,
                        std::vector<std::string> parameters) {
  ExecOptions options;
  options.device = device;
  options.strategy = v.strategy;
  options.hash_capacity = v.hash_capacity;
  options.parameters = std::move(parameters);
  return options;
}

// Compiles every (shape, variant) kernel on all cores: the runs below then find them in
// tally's in-memory NVRTC cache. What fails here fails again, and is reported, in the run.
void compile_ahead(Database& db, const std::vector<QueryShape>& shapes, const std::string& arch) {
  std::vector<std::pair<size_t, Variant>> jobs;
  for (size_t s = 0; s < shapes.size(); ++s) {
    for (const Variant& v : variants_of(s)) jobs.push_back({s, v});
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t j = next++; j < jobs.size(); j = next++) {
      ExecOptions options = options_for(jobs[j].second, DeviceChoice::Gpu, {});
      options.compile_only = true;
      options.arch = arch;
      run_outcome(db, shapes[jobs[j].first].sql, options);
    }
  };
  unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
}

struct Tally {
  size_t queries = 0;      // CPU runs (shape instances)
  size_t gpu_runs = 0;     // GPU runs over all variants
  size_t ran_on_gpu = 0;   // GPU runs that were not declined as Unsupported
  size_t both_raised = 0;  // the CPU and the GPU both raised an error
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
      "random differential: {} queries ({} GPU runs), {} ran on GPU ({} raised an error on both), "
      "{} unsupported ({}), {} mismatches, {} invalid queries, {:.0f} s",
      t.queries, t.gpu_runs, t.ran_on_gpu, t.both_raised, t.unsupported_total(),
      reasons.empty() ? "none" : reasons, t.mismatches, t.invalid, seconds);
}

}  // namespace

TEST_CASE("random differential: GPU against the CPU engine") {
  const uint64_t seed = env_number("TALLY_FUZZ_SEED", kDefaultSeed);
  const size_t shape_count = env_number("TALLY_FUZZ_SHAPES", 250);
  MESSAGE("random differential: base seed " << seed << " (TALLY_FUZZ_SEED), " << shape_count
                                            << " shapes x " << kInstances << " parameter sets");
  auto start = std::chrono::steady_clock::now();
  Database db;
  register_fuzz_tables(db);
  QueryGenerator generator(seed, kInstances);
  std::vector<QueryShape> shapes;
  for (size_t s = 0; s < shape_count; ++s) shapes.push_back(generator.next());
  compile_ahead(db, shapes, cuda::test::test_device().profile().arch());

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
