#include "runtime/compile/gpu_plan_cache.h"

#include <string>

namespace tally {

// A field added to one of these structs must go into the fingerprint too (or be shown not
// to reach generate_cuda): a plan that differs only in it would otherwise load the other
// plan's program. These sizes (x86-64) make such an addition fail to compile here, unless
// it fits in padding as GpuPlan::hash_keys, hash_key_words, block_cache_slots and
// block_replicas did (all in the fingerprint). GpuPlan's layout, thread_tables, block_table,
// launches and distinct_bitmaps need not be listed: the planner derives them from the listed
// fields, the statistics and the (fixed) statement.
static_assert(sizeof(GpuPlan) == 520, "GpuPlan changed: update plan_fingerprint");
static_assert(sizeof(ColumnStats) == 112, "ColumnStats changed: update plan_fingerprint");
static_assert(sizeof(KeyEncoding) == 32, "KeyEncoding changed: update plan_fingerprint");

namespace {

// Appends the bytes of each value: a fingerprint is only compared, never read, and spelling
// it with fmt cost a repeated TPC-H Q1 10-13 us of an H100 host's time.
template <class... Values>
void append_bytes(std::string& f, const Values&... values) {
  (f.append(reinterpret_cast<const char*>(&values), sizeof values), ...);
}

}  // namespace

std::string plan_fingerprint(const GpuPlan& plan, const std::vector<ColumnStats>& stats,
                             const std::string& arch) {
  std::string f;
  f.reserve(arch.size() + 96 + plan.keys.size() * 26 + stats.size() * 80);
  append_bytes(f, arch.size());
  f += arch;
  append_bytes(f, plan.strategy, plan.slots, plan.state_slots, plan.shared_thread_tables,
               plan.projection, plan.hash_keys, plan.hash_key_words, plan.block, plan.grid,
               plan.blocks_per_sm, plan.rows, plan.distinct_capacity, plan.block_cache_slots,
               plan.block_cache_probes, plan.block_replicas, plan.scan_slices, plan.slice_slots,
               plan.spread_multiplier, plan.streamed, plan.emit_states, plan.quick_scan,
               plan.having_fits, plan.packed_sum_carries, plan.keys.size(), stats.size());
  for (const KeyEncoding& k : plan.keys) {
    append_bytes(f, k.bounded, k.min, k.values, k.nullable, k.dictionary_column, k.exact, k.period);
  }
  for (const ColumnStats& s : stats) {
    append_bytes(f, s.has_range, s.min, s.max, s.wide_min, s.wide_max, s.has_nulls, s.has_values,
                 s.dictionary_size, s.layout, s.bits, s.base, s.plain_width);
  }
  return f;
}

std::shared_ptr<const CachedGpuProgram> GpuPlanCache::find(const std::string& fingerprint) const {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(fingerprint);
  if (it == entries_.end()) {
    ++misses_;
    return nullptr;
  }
  ++hits_;
  return it->second;
}

bool GpuPlanCache::contains(const std::string& fingerprint) const {
  std::lock_guard lock(mutex_);
  return entries_.count(fingerprint) > 0;
}

std::shared_ptr<const CachedGpuProgram> GpuPlanCache::insert(
    const std::string& fingerprint, std::shared_ptr<const CachedGpuProgram> entry) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = entries_.emplace(fingerprint, std::move(entry));
  if (inserted) {
    order_.push_back(fingerprint);
    if (order_.size() > kMaxEntries) {
      entries_.erase(order_.front());
      order_.pop_front();
    }
  }
  return it->second;
}

void GpuPlanCache::upgrade(const std::string& fingerprint,
                           std::shared_ptr<const CachedGpuProgram> entry) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(fingerprint);
  if (it != entries_.end() && it->second->unrolled) it->second = std::move(entry);
}

size_t GpuPlanCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

std::optional<GpuPlan> GpuPlanCache::remembered_plan(const PlanInputs& inputs) const {
  std::lock_guard lock(mutex_);
  if (!last_plan_ || !(last_plan_->first == inputs)) return std::nullopt;
  return last_plan_->second;
}

void GpuPlanCache::remember_plan(PlanInputs inputs, GpuPlan plan) {
  std::lock_guard lock(mutex_);
  last_plan_.emplace(std::move(inputs), std::move(plan));
}

std::shared_ptr<const LiftedConstants> GpuPlanCache::lifted_constants(const BoundSelect& query) {
  std::lock_guard lock(mutex_);
  if (!lifted_made_) {
    lifted_ = lift_compared_constants(query);
    lifted_made_ = true;
  }
  return lifted_;
}

}  // namespace tally
