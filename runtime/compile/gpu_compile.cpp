#include "runtime/compile/gpu_compile.h"

#include <fmt/format.h>

#include <chrono>
#include <map>
#include <mutex>
#include <optional>

#include "compiler/common/elapsed.h"
#include "compiler/plan/block_cache_choice.h"
#include "compiler/plan/count_sum_packing.h"
#include "compiler/plan/l2_slices.h"
#include "compiler/plan/shared_placement.h"
#include "compiler/plan/slot_spread.h"
#include "runtime/compile/group_estimate.h"
#include "runtime/compile/kernel_cache.h"
#include "runtime/compile/key_locality.h"
#include "runtime/compile/nvrtc_stamp.h"

namespace tally {

namespace {

// Where the keys of the rows in flight together land decides L2 slices and the slots' spread:
// a sample of windows of consecutive rows, taken only where either could apply.
GpuPlan with_key_locality(GpuPlan plan, const BoundSelect& query,
                          const std::vector<ColumnStats>& stats, const GpuCompileOptions& options,
                          const std::vector<Value>& parameters) {
  const bool slices =
      plan.strategy == GpuStrategy::Direct && l2_slices_may_pay(plan, query, stats, options.limits);
  if (!slices && !may_spread_slots(plan, query)) return plan;
  const std::optional<KeyLocality> locality =
      sample_key_locality(query, *options.table, plan, parameters);
  if (!locality) return plan;
  if (slices) plan = with_l2_slices(std::move(plan), query, stats, options.limits, *locality);
  if (may_spread_slots(plan, query)) plan = with_spread_slots(std::move(plan), *locality);
  return plan;
}

// The keys of 8,192 rows drawn at random (estimate_groups): drawn at most once a plan, by the
// first step that asks, since a fixed seed gives every step the same rows.
class GroupSample {
 public:
  GroupSample(const BoundSelect& query, const Table& table, const std::vector<Value>& parameters)
      : query_(query), table_(table), parameters_(parameters) {}
  const GroupEstimate& estimate() {
    if (!estimate_) estimate_ = estimate_groups(query_, table_, parameters_, kRows);
    return *estimate_;
  }

 private:
  static constexpr uint64_t kRows = 8192;
  const BoundSelect& query_;
  const Table& table_;
  const std::vector<Value>& parameters_;
  std::optional<GroupEstimate> estimate_;
};

// A sample costs about a millisecond of evaluation: worth it only where the row-based table is
// large enough to cost more to clear and finalize, where a hot group would make the packed
// sum's Scan run twice, or where a large table's block cache may hold keys that rarely repeat.
// A key seen fewer than kHotSampleRows times in it says nothing of its share; without a block
// cache every row of a hot key reaches the packed word, so 5 times count: uniform keys over
// 2^16 slots or more put 5 of 8,192 sampled rows on one key with a chance under 2%
// (n^5 / 120 K^4), and Zipf 0.5 keys over 2^19 slots, whose hottest holds 92,000 of 2^27 rows
// (past the 68,719 a low-count sum of values under 10^6 is exact for), about 6 (their Scan ran
// twice on an H200 once the cache was dropped).
GpuPlan with_sampled_groups(GpuPlan plan, const BoundSelect& query,
                            const std::vector<ColumnStats>& stats, const GpuCompileOptions& options,
                            GroupSample& sample) {
  constexpr uint64_t kSampleAbove = uint64_t{1} << 18;
  constexpr uint64_t kHotSampleRows = 8, kHotSampleRowsUncached = 5;
  const bool size_hash =
      plan.strategy == GpuStrategy::Hash && options.hash_capacity == 0 && plan.slots > kSampleAbove;
  const bool weigh_cache = plan.block_cache_slots > 0 && plan.slots > kMaxBlockSlots;
  const bool may_wrap = packed_sum_may_wrap(plan, query, stats);
  if (!size_hash && !weigh_cache && !may_wrap) return plan;
  const GroupEstimate& e = sample.estimate();
  if (e.passed > 0 && size_hash) {
    plan =
        with_estimated_groups(plan, e.groups_high,
                              fmt::format("estimated {} from {} distinct keys in {} sampled rows",
                                          e.groups, e.distinct, e.passed));
  }
  if (e.passed > 0 && weigh_cache) {
    // A Direct plan's keys spread over its domain; a Hash plan's over its estimated groups.
    const uint64_t domain = plan.strategy == GpuStrategy::Direct ? plan.slots : e.groups;
    plan = with_sampled_block_cache(std::move(plan), e.distinct, e.passed, domain);
  }
  const uint64_t hot = plan.block_cache_slots > 0 ? kHotSampleRows : kHotSampleRowsUncached;
  if (e.hottest >= hot && packed_sum_may_wrap(plan, query, stats)) {
    plan = with_hot_group_carries(
        plan, query, stats, e.hottest * plan.rows / e.sampled, e.distinct,
        fmt::format("one key in {} of {} sampled rows", e.hottest, e.sampled));
  }
  return plan;
}

// A sliced Block table keeps one copy of each slot an SM (there is no room for more), so a
// key holding a large share of the rows sends that share of a pass's shared atomics to one
// word, and a packed word takes two dependent atomics a row; Direct's block cache keeps a
// copy in each of its 8 blocks an SM. H200, 2^27 rows, Zipf 1.5 (the hottest key 38% of the
// rows) over 2^16 and 2^17 slots, packed: slices 0.77 and 1.10 ms, direct 0.55 and 0.77; over
// 2^15 in 2 unpacked slices 0.45, direct 0.67. Zipf 1.0 (its hottest key 6-8%), packed: slices
// 0.58 and 0.97, direct 2.12 and 1.35. So auto leaves packed slices for Direct where one key
// holds 1/8 of the sample.
GpuPlan without_hot_slices(GpuPlan plan, const BoundSelect& query,
                           const std::vector<ColumnStats>& stats, const GpuCompileOptions& options,
                           GroupSample& sample) {
  constexpr uint64_t kHotShare = 8;
  if (options.strategy != GpuStrategy::Auto || plan.strategy != GpuStrategy::Block ||
      !plan.sliced() || plan.block_table.packed.words == 0) {
    return plan;
  }
  const GroupEstimate& e = sample.estimate();
  if (e.passed == 0 || e.hottest * kHotShare < e.passed) return plan;
  GpuPlan direct =
      plan_gpu(query, stats, plan.rows, options.limits, GpuStrategy::Direct, options.parameters);
  direct.reason = fmt::format(
      "one key in {} of {} sampled rows would take that share of a sliced block table's shared "
      "atomics on one word an SM",
      e.hottest, e.passed);
  return direct;
}

}  // namespace

GpuPlan plan_for(const BoundSelect& query, const std::vector<ColumnStats>& stats, uint64_t rows,
                 const GpuCompileOptions& options) {
  GpuPlan plan = plan_gpu(query, stats, rows, options.limits, options.strategy, options.parameters);
  static const std::vector<Value> kNone;
  const bool values_known = query.parameter_types.empty() || options.parameters;
  const std::vector<Value>& parameters = options.parameters ? *options.parameters : kNone;
  const bool sample = options.table && values_known;
  std::optional<GroupSample> groups;
  if (sample) groups.emplace(query, *options.table, parameters);
  if (sample) plan = without_hot_slices(std::move(plan), query, stats, options, *groups);
  if (sample) plan = with_key_locality(std::move(plan), query, stats, options, parameters);
  if (plan.strategy == GpuStrategy::Hash && options.hash_capacity > 0)
    plan = with_hash_capacity(plan, options.hash_capacity);
  if (sample) plan = with_sampled_groups(std::move(plan), query, stats, options, *groups);
  return plan;
}

std::string binary_source_note(BinarySource source, double disk_load_ms) {
  switch (source) {
    case BinarySource::Nvrtc:
      return "";
    case BinarySource::PlanCache:
      return " (plan cache)";
    case BinarySource::MemoryCache:
      return " (memory cache)";
    case BinarySource::DiskCache:
      return fmt::format(" (disk cache, loaded in {:.2f} ms)", disk_load_ms);
  }
  return "";
}

namespace {

using KernelPtr = std::shared_ptr<const cuda::CompiledKernel>;

// This process's compiled binaries, by arch and source text.
struct MemoryCache {
  std::mutex mutex;
  std::map<std::string, KernelPtr> binaries;
};

MemoryCache& memory_cache() {
  static MemoryCache cache;
  return cache;
}

std::string memory_key(const std::string& source, const std::string& arch) {
  return arch + "\n" + source;
}

KernelPtr in_memory(const std::string& key) {
  MemoryCache& memory = memory_cache();
  std::lock_guard lock(memory.mutex);
  auto it = memory.binaries.find(key);
  return it == memory.binaries.end() ? nullptr : it->second;
}

// The binary kept under `key`: `binary`, or one another thread kept first.
KernelPtr keep_in_memory(const std::string& key, KernelPtr binary) {
  MemoryCache& memory = memory_cache();
  std::lock_guard lock(memory.mutex);
  return memory.binaries.emplace(key, std::move(binary)).first->second;
}

// The disk cache's key, or nullopt when NVRTC cannot be loaded (compile_cuda then reports
// that properly). The NVRTC version comes from the cache's stamp when this process has not
// loaded NVRTC (runtime/compile/nvrtc_stamp.h).
std::optional<KernelCacheKey> disk_key(const std::string& source,
                                       const cuda::CompileOptions& options,
                                       const KernelCacheConfig& config) {
  try {
    KernelCacheKeyInputs inputs;
    inputs.source = source;
    inputs.nvrtc_args = cuda::nvrtc_arguments(options);
    inputs.arch = options.arch;
    inputs.nvrtc_version = nvrtc_version_for_cache(config.directory);
    return kernel_cache_key(inputs);
  } catch (const Error&) {
    return std::nullopt;
  }
}

// The disk cache's entry for `source`, or null (a miss, or no disk cache); c.disk_load_ms
// says how long the look took.
KernelPtr from_disk(const std::string& source, const cuda::CompileOptions& options,
                    const KernelCacheWarning& warn, GpuCompilation& c) {
  auto start = std::chrono::steady_clock::now();
  KernelCache disk(KernelCacheConfig::from_environment(warn), warn);
  if (!disk.enabled()) return nullptr;
  std::optional<KernelCacheKey> key = disk_key(source, options, disk.config());
  if (!key) return nullptr;
  std::optional<cuda::CompiledKernel> hit = disk.load(*key);
  c.disk_load_ms = ms_since(start);
  if (!hit) return nullptr;
  c.source = BinarySource::DiskCache;
  return std::make_shared<const cuda::CompiledKernel>(std::move(*hit));
}

// NVRTC, storing what it compiles in the disk cache under the key of the NVRTC that ran.
KernelPtr compile_to_disk(const std::string& source, const cuda::CompileOptions& options,
                          const KernelCacheWarning& warn) {
  auto binary = std::make_shared<const cuda::CompiledKernel>(
      cuda::compile_cuda(source, "tally_query.cu", options));
  KernelCache disk(KernelCacheConfig::from_environment(warn), warn);
  if (!disk.enabled()) return binary;
  if (std::optional<KernelCacheKey> key = disk_key(source, options, disk.config())) {
    disk.store(*key, *binary);
  }
  return binary;
}

KernelPtr load_or_compile(const std::string& source, const cuda::CompileOptions& options,
                          const KernelCacheWarning& warn, GpuCompilation& c) {
  if (KernelPtr hit = from_disk(source, options, warn, c)) return hit;
  return compile_to_disk(source, options, warn);
}

bool on_disk(const std::string& source, const std::string& arch) {
  const KernelCacheWarning quiet = [](const std::string&) {};
  KernelCache disk(KernelCacheConfig::from_environment(quiet), quiet);
  if (!disk.enabled()) return false;
  cuda::CompileOptions options;
  options.arch = arch;
  std::optional<KernelCacheKey> key = disk_key(source, options, disk.config());
  return key && disk.contains(*key);
}

}  // namespace

GpuCompilation find_compiled(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                             const GpuPlan& plan, const std::string& arch) {
  GpuCompilation c;
  c.plan = plan;
  auto start = std::chrono::steady_clock::now();
  c.program = std::make_shared<const GpuProgram>(generate_cuda(query, plan, stats));
  c.codegen_ms = ms_since(start);
  const std::string key = memory_key(c.program->source, arch);
  if ((c.binary = in_memory(key))) {
    c.source = BinarySource::MemoryCache;
    return c;
  }
  cuda::CompileOptions options;
  options.arch = arch;
  if ((c.binary = from_disk(c.program->source, options, warn_on_stderr, c))) {
    keep_in_memory(key, c.binary);
  }
  return c;
}

void compile_missing(GpuCompilation& c, const std::string& arch) {
  if (c.binary) return;
  cuda::CompileOptions options;
  options.arch = arch;
  c.binary = compile_to_disk(c.program->source, options, warn_on_stderr);
  c.source = BinarySource::Nvrtc;
  keep_in_memory(memory_key(c.program->source, arch), c.binary);
}

GpuCompilation compile_plan(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                            const GpuPlan& plan, const std::string& arch) {
  GpuCompilation c = find_compiled(query, stats, plan, arch);
  compile_missing(c, arch);
  return c;
}

std::shared_ptr<const cuda::CompiledKernel> binary_in_memory(const std::string& source,
                                                             const std::string& arch) {
  return in_memory(memory_key(source, arch));
}

bool binary_cached(const GpuPlan& plan, const std::vector<ColumnStats>& stats,
                   const GpuProgram& program, const std::string& arch, const GpuPlanCache* plans) {
  if (plans && plans->contains(plan_fingerprint(plan, stats, arch))) return true;
  return in_memory(memory_key(program.source, arch)) || on_disk(program.source, arch);
}

bool source_cached(const std::string& source, const std::string& arch) {
  return in_memory(memory_key(source, arch)) || on_disk(source, arch);
}

std::shared_ptr<const cuda::CompiledKernel> compile_into_caches(const std::string& source,
                                                                const std::string& arch,
                                                                const KernelCacheWarning& warn) {
  const std::string key = memory_key(source, arch);
  if (KernelPtr kept = in_memory(key)) return kept;
  cuda::CompileOptions options;
  options.arch = arch;
  GpuCompilation c;
  return keep_in_memory(key, load_or_compile(source, options, warn, c));
}

GpuCompilation from_plan_cache(const CachedGpuProgram& hit, const std::string& fingerprint,
                               const GpuPlan& plan, const std::string& arch, GpuPlanCache& plans) {
  const CachedGpuProgram* entry = &hit;
  std::shared_ptr<const CachedGpuProgram> upgraded;
  if (hit.unrolled) {
    if (KernelPtr binary = binary_in_memory(hit.unrolled->source, arch)) {
      upgraded = std::make_shared<const CachedGpuProgram>(
          CachedGpuProgram{hit.unrolled, std::move(binary), nullptr});
      plans.upgrade(fingerprint, upgraded);
      entry = upgraded.get();
    }
  }
  GpuCompilation c;
  c.plan = plan;
  c.program = entry->program;
  c.binary = entry->binary;
  c.source = BinarySource::PlanCache;
  c.quick = entry->unrolled != nullptr;
  return c;
}

GpuCompilation compile_plan(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                            const GpuPlan& plan, const std::string& arch, GpuPlanCache* plans) {
  if (plans == nullptr) return compile_plan(query, stats, plan, arch);
  std::string fingerprint = plan_fingerprint(plan, stats, arch);
  if (auto hit = plans->find(fingerprint)) {
    GpuCompilation c = from_plan_cache(*hit, fingerprint, plan, arch, *plans);
    if (!c.quick) return c;
    // Quick kernels turned off after a quick run: the unrolled ones, compiled now if need be.
    c = compile_plan(query, stats, plan, arch);
    plans->upgrade(fingerprint, std::make_shared<const CachedGpuProgram>(
                                    CachedGpuProgram{c.program, c.binary, nullptr}));
    return c;
  }
  GpuCompilation c = compile_plan(query, stats, plan, arch);
  plans->insert(fingerprint, std::make_shared<const CachedGpuProgram>(
                                 CachedGpuProgram{c.program, c.binary, nullptr}));
  return c;
}

}  // namespace tally
