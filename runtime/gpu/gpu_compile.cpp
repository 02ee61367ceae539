#include "runtime/gpu/gpu_compile.h"

#include <chrono>
#include <map>
#include <mutex>

namespace tally {

std::vector<ColumnStats> scan_stats(const BoundSelect& query, const Table& table) {
  std::vector<ColumnStats> stats;
  for (const auto& sc : query.scan) {
    const Column& c = *table.columns[sc.table_column];
    ColumnStats s;
    const Type& t = sc.type;
    bool integer_like = !t.is_float() && !t.is_wide_decimal();
    s.has_range = integer_like && c.size() > c.null_count();
    s.min = c.min_int();
    s.max = c.max_int();
    s.has_nulls = c.has_nulls();
    s.has_values = c.size() > c.null_count();
    s.dictionary_size = c.dictionary().size();
    if (c.encoding() == Encoding::Plain) {
      s.layout = ColumnStats::Layout::Plain;
      s.plain_width = physical_width(t);
    } else {
      s.layout = ColumnStats::Layout::BitPacked;
      s.bits = c.bits();
      s.base = c.base();
    }
    stats.push_back(s);
  }
  return stats;
}

GpuPlan plan_for(const BoundSelect& query, const std::vector<ColumnStats>& stats, uint64_t rows,
                 const GpuCompileOptions& options) {
  GpuPlan plan = plan_gpu(query, stats, rows, options.limits, options.strategy);
  if (options.hash_capacity > 0 && plan.strategy == GpuStrategy::Hash) {
    plan = with_hash_capacity(plan, options.hash_capacity);
  }
  return plan;
}

GpuCompilation compile_plan(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                            const GpuPlan& plan, const std::string& arch) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const cuda::CompiledKernel>> cache;
  GpuCompilation c;
  c.plan = plan;
  auto start = std::chrono::steady_clock::now();
  c.program = generate_cuda(query, plan, stats);
  c.codegen_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::string key = arch + "\n" + c.program.source;
  {
    std::lock_guard lock(mutex);
    auto it = cache.find(key);
    if (it != cache.end()) {
      c.binary = it->second;
      c.from_memory_cache = true;
      return c;
    }
  }
  cuda::CompileOptions options;
  options.arch = arch;
  auto binary = std::make_shared<const cuda::CompiledKernel>(
      cuda::compile_cuda(c.program.source, "tally_query.cu", options));
  std::lock_guard lock(mutex);
  cache.emplace(key, binary);
  c.binary = binary;
  return c;
}

}  // namespace tally
