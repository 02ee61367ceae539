// GpuEngine::first_plan: the plan a run starts from, shared by run() and by adaptive
// compilation's look into the kernel caches, so that both find the same kernels.
#include <algorithm>

#include "runtime/gpu/gpu_engine.h"
#include "runtime/gpu/placement.h"

namespace tally {

GpuEngine::FirstPlan GpuEngine::first_plan(const BoundSelect& query, const Table& table,
                                           const std::vector<ColumnStats>& stats,
                                           const std::vector<Value>& parameters,
                                           const GpuRunOptions& options) {
  std::lock_guard lock(impl_->mutex);
  impl_->pool.set_limit(options.device_memory_limit);  // as run() sets it: placement reads it
  return plan_first_attempt(query, table, stats, parameters, options);
}

GpuEngine::FirstPlan GpuEngine::plan_first_attempt(const BoundSelect& query, const Table& table,
                                                   const std::vector<ColumnStats>& stats,
                                                   const std::vector<Value>& parameters,
                                                   const GpuRunOptions& options) {
  FirstPlan first;
  const GpuCompileOptions compile = compile_options(options, parameters, table);
  const bool string_parameter =
      std::any_of(query.parameter_types.begin(), query.parameter_types.end(),
                  [](const Type& t) { return t.is_string(); });
  if (options.plans != nullptr && !string_parameter) {
    GpuPlanCache::PlanInputs inputs{
        table.rows(),   {},          stats, compile.strategy, compile.hash_capacity,
        compile.limits, compile.arch};
    for (const Value& v : parameters) inputs.parameters.emplace_back(v.null, v.d);
    if (std::optional<GpuPlan> remembered = options.plans->remembered_plan(inputs)) {
      first.plan = std::move(*remembered);
    } else {
      first.plan = plan_for(query, stats, table.rows(), compile);
      options.plans->remember_plan(std::move(inputs), first.plan);
    }
  } else {
    first.plan = plan_for(query, stats, table.rows(), compile);
  }
  first.on_host = place_on_host(*impl_, query, table, options.placement);
  if (first.on_host) first.plan = with_streamed_scan(first.plan, false);
  return first;
}

}  // namespace tally
