// `tally calibrate`: measures the grouping strategies on the GPU in hand and returns their
// rates against the number of groups (compiler/plan/strategy_rates.h), which the planner's
// auto choice then follows. Each point is tally's own kernels for
// `SELECT col1 % K, COUNT(*), SUM(col2) ... GROUP BY 1` with the strategy forced, so the
// profile measures what the planner chooses between (shared atomics in block tables,
// global atomics in direct and hash tables, registers in thread tables), not a proxy.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/plan/strategy_rates.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/database.h"

namespace tally {

struct CalibrateOptions {
  // Group counts to measure: 1, 4, 16, ... 2^24 by default.
  std::vector<uint64_t> groups = default_calibration_groups();
  int repetitions = 3;  // the fastest of these counts
  // Called after each measurement with a line for the user (strategy, K, ms, G rows/s).
  std::function<void(const std::string&)> progress;

  static std::vector<uint64_t> default_calibration_groups();
};

// Measures on `engine` over `db`'s table `table`, which must have a BIGINT col1 whose values
// spread over at least the largest group count and an INTEGER col2 (tools/data's atable).
StrategyRates calibrate_strategies(GpuEngine& engine, const Database& db, const std::string& table,
                                   const CalibrateOptions& options);

}  // namespace tally
