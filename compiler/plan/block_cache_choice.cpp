#include "compiler/plan/block_cache_choice.h"

#include <fmt/format.h>

#include <cmath>

namespace tally {

double uniform_distinct(uint64_t n, uint64_t d) {
  const auto dd = static_cast<double>(std::max<uint64_t>(d, 1));
  return dd * -std::expm1(static_cast<double>(n) * std::log1p(-1.0 / dd));
}

bool sampled_keys_scattered(uint64_t distinct, uint64_t sampled, uint64_t domain) {
  return static_cast<double>(distinct) >= kScatteredDistinct * uniform_distinct(sampled, domain);
}

GpuPlan without_block_cache(GpuPlan plan, const std::string& why) {
  if (plan.block_cache_slots == 0) return plan;
  plan.block_cache_slots = 0;
  plan.block_table = BlockTable{};
  plan.considered += fmt::format("              block cache: dropped ({})\n", why);
  return plan;
}

GpuPlan with_sampled_block_cache(GpuPlan plan, uint64_t distinct, uint64_t sampled,
                                 uint64_t domain) {
  if (plan.block_cache_slots == 0 || distinct <= plan.block_cache_slots ||
      !sampled_keys_scattered(distinct, sampled, domain)) {
    return plan;
  }
  return without_block_cache(
      std::move(plan),
      fmt::format("{} distinct keys in {} sampled rows, as many as uniform keys over {} give: "
                  "a block's rows would rarely hit it",
                  distinct, sampled, domain));
}

}  // namespace tally
