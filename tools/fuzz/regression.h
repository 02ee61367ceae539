// Regression files: a finding kept as a .sql file whose first lines say what happened and
// where the statement came from, and whose rest is the statement byte for byte:
//
//   -- tally-fuzz: crash (signal 11)
//   -- tally-fuzz: seed 7, index 1234, generated
//   -- tally-fuzz: context tests/sql/groupby/groupby.test:57
//   SELECT ...
//
// The context line is absent for the fuzz schema. `tally-fuzz --replay` runs such files
// (tests/fuzz/regressions/ in CI) and fails on any finding.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/fuzz/cases.h"

namespace tally::fuzz {

// Writes the finding into `dir` (created if missing) as <what>-s<seed>-i<index>.sql and
// returns the path; "" when it cannot be written (reported on stderr).
std::string write_regression(const std::string& dir, const FuzzCase& c, const std::string& what,
                             uint64_t seed, uint64_t index);

// The cases of every .sql file named by `paths` (files, or directories read for *.sql,
// sorted); the origin of each is its path. Throws Error(Io) for a path that is missing.
std::vector<FuzzCase> read_regressions(const std::vector<std::string>& paths);

}  // namespace tally::fuzz
