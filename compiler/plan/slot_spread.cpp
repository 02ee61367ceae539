#include "compiler/plan/slot_spread.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "compiler/ir/grouping_sets.h"
#include "compiler/plan/shared_placement.h"

namespace tally {

namespace {

// The modular inverse of `a` mod `m` (gcd 1), by the extended Euclidean algorithm.
uint64_t inverse_mod(uint64_t a, uint64_t m) {
  int64_t r0 = static_cast<int64_t>(m), r1 = static_cast<int64_t>(a % m), t0 = 0, t1 = 1;
  while (r1 != 0) {
    const int64_t q = r0 / r1;
    r0 -= q * r1;
    std::swap(r0, r1);
    t0 -= q * t1;
    std::swap(t0, t1);
  }
  return static_cast<uint64_t>(t0 < 0 ? t0 + static_cast<int64_t>(m) : t0);
}

// Near the golden section of the slots (Fibonacci hashing): neighbours land far apart, and so
// do keys a few apart, whatever the step between them.
uint64_t golden_multiplier(uint64_t slots) {
  auto m = static_cast<uint64_t>(std::llround(static_cast<double>(slots) * 0.6180339887498949));
  while (std::gcd(m, slots) != 1) ++m;
  return m;
}

}  // namespace

bool may_spread_slots(const GpuPlan& plan, const BoundSelect& query) {
  return plan.strategy == GpuStrategy::Direct && !plan.projection && !plan.sliced() &&
         plan.slots > kMaxBlockSlots && plan.slots < (1ull << 32) &&
         !is_one_pass_grouping_query(query);
}

GpuPlan with_spread_slots(GpuPlan plan, const KeyLocality& locality) {
  const uint64_t span = std::min(locality.window_slots, plan.slots);
  if (span < plan.slots / 2) {
    plan.considered += fmt::format(
        "              spread slots: not taken (the keys of {} consecutive rows span {} of {} "
        "slots)\n",
        std::min(plan.rows, kRowsInFlight), span, plan.slots);
    return plan;
  }
  plan.spread_multiplier = golden_multiplier(plan.slots);
  plan.considered += fmt::format(
      "              spread slots: taken (the keys of {} consecutive rows span {} of {} slots)\n",
      std::min(plan.rows, kRowsInFlight), span, plan.slots);
  return plan;
}

uint64_t spread_inverse(const GpuPlan& plan) {
  return inverse_mod(plan.spread_multiplier, plan.slots);
}

}  // namespace tally
