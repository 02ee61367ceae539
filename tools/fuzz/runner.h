// Runs fuzz cases so that no crash or hang can stop the run: the cases run in a forked
// child; before each one the child writes the case's index and start time into memory it
// shares with the parent; a watchdog thread in the child exits with kHangExit when a case
// passes the time limit; the parent, seeing a child die, records the case that was running
// (a regression file, tools/fuzz/regression.h) and forks a new child from the next case.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/fuzz/cases.h"
#include "tools/fuzz/counters.h"
#include "tools/fuzz/executor.h"

namespace tally::fuzz {

struct RunnerOptions {
  ExecutorOptions executor;
  double time_limit_s = 5;
  double nvrtc_limit_s = 120;   // a statement's limit once its NVRTC compile starts
  std::string regressions_dir;  // where findings are written; "" writes none
  uint64_t seed = 0;            // for the regression files' names and headers
};

struct RunTotals {
  uint64_t cases = 0;
  uint64_t counts[kCounterCount] = {};
  double seconds = 0;
};

// Runs every case; findings are reported on stderr as they happen.
RunTotals run_cases(const std::vector<FuzzCase>& cases, const RunnerOptions& options);

// The summary line: statements, outcomes by kind, code generator and GPU counts, findings.
std::string summary(const RunTotals& totals);

}  // namespace tally::fuzz
