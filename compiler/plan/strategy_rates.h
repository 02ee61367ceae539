// Measured scan rates of the grouping strategies against the number of groups on one GPU,
// written by `tally calibrate` (runtime/session/calibrate.h) next to the kernel cache. Where a
// profile is loaded, the planner's auto choice takes the strategy with the highest measured
// rate at the query's group count among those that can run it (karnagel-2015 §6: the
// placement rules come from measurements of the device in hand); without one it keeps its
// built-in rules. Plain data: the runtime reads and writes the file.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tally {

struct RatePoint {
  uint64_t groups = 0;
  double rows_per_s = 0;
};

struct StrategyRates {
  std::string device;           // the GPU the rates were measured on
  uint64_t rows = 0;            // rows of the calibration table
  double read_bytes_per_s = 0;  // what a scan without grouping read
  // By strategy name (strategy_name: "thread", "block", "direct", "hash"), groups ascending.
  std::map<std::string, std::vector<RatePoint>> points;

  // Rows a second of `strategy` at `groups` groups, interpolated in log-log between the
  // measured points; nullopt outside them or without a measurement.
  std::optional<double> rate(const std::string& strategy, uint64_t groups) const;
  void add(const std::string& strategy, uint64_t groups, double rows_per_s);
};

// The profile's text (a header line, then one fact a line); parse_strategy_rates reads it back
// and throws Error(Cache) naming `where` and the line for anything else.
std::string serialize_strategy_rates(const StrategyRates& rates);
StrategyRates parse_strategy_rates(const std::string& text, const std::string& where);

}  // namespace tally
