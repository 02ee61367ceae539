#include "compiler/plan/calibrated_choice.h"

#include <fmt/format.h>

#include <utility>
#include <vector>

namespace tally {

std::optional<CalibratedChoice> calibrated_choice(const StrategyRates& rates,
                                                  const StrategyFits& fits, uint64_t groups,
                                                  uint64_t rows) {
  if (rows < rates.rows / 16) return std::nullopt;
  const std::vector<std::pair<GpuStrategy, bool>> candidates = {
      {GpuStrategy::ThreadPrivate, fits.thread},
      {GpuStrategy::Block, fits.block},
      {GpuStrategy::Direct, fits.direct},
      {GpuStrategy::Hash, fits.hash}};
  CalibratedChoice choice;
  double best = 0;
  for (const auto& [strategy, fits_query] : candidates) {
    if (!fits_query) continue;
    const std::optional<double> rate = rates.rate(strategy_name(strategy), groups);
    if (!rate) continue;
    choice.estimates += fmt::format(
        "              {}: {:.1f} G rows/s measured at {} groups, about {:.3f} ms\n",
        strategy_name(strategy), *rate / 1e9, groups, static_cast<double>(rows) / *rate * 1e3);
    if (*rate > best) {
      best = *rate;
      choice.strategy = strategy;
    }
  }
  if (choice.strategy == GpuStrategy::Auto) return std::nullopt;
  choice.reason = fmt::format("fastest at {} groups on {} (device profile, {:.1f} G rows/s)",
                              groups, rates.device, best / 1e9);
  return choice;
}

}  // namespace tally
