#include "runtime/compile/kernel_tiers.h"

#include <memory>
#include <utility>

namespace tally {

namespace {

GpuPlan quick_plan(GpuPlan plan) {
  plan.quick_scan = true;
  return plan;
}

struct TieredCompilation {
  GpuCompilation compilation;
  std::shared_ptr<const GpuProgram> unrolled;  // set when `compilation` is the quick tier's
};

// The unrolled kernels where a cache has them; else the quick ones, compiled now, while the
// unrolled ones are queued on `compiler`. A Scan that does not unroll has one tier only.
TieredCompilation quick_first(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                              const GpuPlan& plan, const std::string& arch,
                              BackgroundCompiler& compiler) {
  GpuCompilation unrolled = find_compiled(query, stats, plan, arch);
  if (unrolled.binary) return {std::move(unrolled), nullptr};
  GpuCompilation quick = find_compiled(query, stats, quick_plan(plan), arch);
  if (quick.program->source == unrolled.program->source) {
    compile_missing(unrolled, arch);
    return {std::move(unrolled), nullptr};
  }
  compile_missing(quick, arch);
  quick.codegen_ms += unrolled.codegen_ms;
  quick.disk_load_ms += unrolled.disk_load_ms;
  quick.quick = true;
  // A compile that failed in the background is not retried at every run; the quick kernels
  // stay (they compute the same results).
  if (!compiler.failed(unrolled.program->source, arch)) {
    compiler.enqueue(unrolled.program->source, arch);
  }
  return {std::move(quick), std::move(unrolled.program)};
}

}  // namespace

GpuCompilation compile_in_tiers(const BoundSelect& query, const std::vector<ColumnStats>& stats,
                                const GpuPlan& plan, const std::string& arch, GpuPlanCache* plans,
                                const KernelTierChoice& choice) {
  if (choice.tiers == KernelTiers::QuickOnly) {
    GpuCompilation c = compile_plan(query, stats, quick_plan(plan), arch, plans);
    c.quick = true;
    return c;
  }
  if (choice.tiers == KernelTiers::Unrolled || choice.compiler == nullptr) {
    return compile_plan(query, stats, plan, arch, plans);
  }
  if (plans == nullptr) return quick_first(query, stats, plan, arch, *choice.compiler).compilation;
  const std::string fingerprint = plan_fingerprint(plan, stats, arch);
  if (auto hit = plans->find(fingerprint)) {
    return from_plan_cache(*hit, fingerprint, plan, arch, *plans);
  }
  TieredCompilation t = quick_first(query, stats, plan, arch, *choice.compiler);
  const GpuCompilation& c = t.compilation;
  plans->insert(fingerprint, std::make_shared<const CachedGpuProgram>(
                                 CachedGpuProgram{c.program, c.binary, std::move(t.unrolled)}));
  return t.compilation;
}

}  // namespace tally
