// How the GROUP BY sweep (bench/groupby_sweep.cpp) shows its measurements: per (key kind,
// distribution) a table on stdout with, for each K, one line per method (ms, ns per row, x the
// floor, x the best peer, and why where it did not run), and the same as one CSV row per (point,
// method) for bench/plot_groupby_sweep.py.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "bench/groupby_methods.h"

namespace tally::bench {

// One point's measurements: the floor (bytes tally reads / measured read bandwidth; not
// run without a GPU) and every method, in the order they are shown.
struct PointResult {
  std::string kind, dist;
  uint64_t k = 0;
  size_t rows = 0;
  Measured floor{"floor"};
  std::vector<Measured> methods;
};

class SweepReport {
 public:
  // `csv_path` empty: no CSV. Throws std::runtime_error when the file cannot be written.
  explicit SweepReport(const std::string& csv_path);

  // `gpu`: the GPU methods ran (else --cpu: no floor, no peers).
  void block_header(const std::string& kind, const std::string& dist, size_t rows, bool gpu);
  void point(const PointResult& point);
  // A point that could not be measured at all (its data or its query failed): a failure.
  void point_failed(const std::string& kind, const std::string& dist, uint64_t k,
                    const std::string& why);

  int wrong() const { return wrong_; }
  int failed() const { return failed_; }

 private:
  void csv_row(const PointResult& point, const Measured& m, double best_peer_ms);

  std::ofstream csv_;
  int wrong_ = 0, failed_ = 0;
};

}  // namespace tally::bench
