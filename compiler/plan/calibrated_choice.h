// The auto strategy from a device profile (compiler/plan/strategy_rates.h): among the
// strategies that can run a query, the one `tally calibrate` measured fastest at the query's
// group count. The planner's built-in rules decide where the profile cannot.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "compiler/plan/gpu_plan.h"
#include "compiler/plan/strategy_rates.h"

namespace tally {

struct StrategyFits {
  bool thread = false;
  bool block = false;
  bool direct = false;
  bool hash = false;
};

struct CalibratedChoice {
  GpuStrategy strategy = GpuStrategy::Auto;
  std::string reason;     // for --explain
  std::string estimates;  // one line a strategy: its measured rate and estimated time
};

// nullopt where the profile cannot decide: fewer rows than a sixteenth of its table's (then
// per-block costs that the measurement spread over many rows dominate), or no measured
// rate at `groups` for any strategy that fits.
std::optional<CalibratedChoice> calibrated_choice(const StrategyRates& rates,
                                                  const StrategyFits& fits, uint64_t groups,
                                                  uint64_t rows);

}  // namespace tally
