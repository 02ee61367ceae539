// The command line of the GROUP BY sweep (bench/groupby_sweep.cpp): which points to measure
// (K, key kinds, distributions, methods) and how (rows, repetitions, CSV, time limit).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tally::bench {

struct SweepOptions {
  size_t rows = size_t{1} << 27;
  uint64_t k_min = 1, k_max = uint64_t{1} << 24, k_step = 2;
  int reps = 5, warmup = 1;
  std::vector<std::string> kinds = {"column", "mod", "two", "string"};
  std::vector<std::string> dists = {"uniform", "zipf0.5", "zipf1.0", "zipf1.5"};
  std::vector<std::string> strategies = {"thread", "direct", "hash", "block", "auto"};
  std::string csv;
  uint64_t seed = 42;
  bool cpu = false;
  bool help = false;
  // Seconds after which no new point starts (0: none), so that a sweep on a lent GPU
  // machine ends inside the time it was given and keeps what it measured.
  double time_limit_s = 0;

  // K = k_min, k_min * k_step, ... up to k_max.
  std::vector<uint64_t> k_values() const;
};

extern const char* const kSweepUsage;

// Throws std::invalid_argument naming the option at fault.
SweepOptions parse_sweep_options(int argc, char** argv);

}  // namespace tally::bench
