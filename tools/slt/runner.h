// Running sqllogictest files against tally: each file gets a fresh Database, its records
// run in order, and a failing record is reported without stopping the file.
#pragma once

#include <string>
#include <vector>

#include "runtime/session/database.h"
#include "tools/slt/record.h"

namespace tally::slt {

struct RunOptions {
  DeviceChoice device = DeviceChoice::Cpu;
  std::string engine = "cpu";  // the name skipif/onlyif lines are compared with
};

struct FileReport {
  std::string path;
  int passed = 0;
  int failed = 0;
  int skipped = 0;
  std::vector<std::string> failures;  // one description per failure, starting "path:line: "
};

FileReport run_test_file(const TestFile& file, const RunOptions& options);

// Loads, parses and runs one file; a file that cannot be read or parsed counts as one
// failure.
FileReport run_test_path(const std::string& path, const RunOptions& options);

// The .test files named by `paths`: files as given, directories searched recursively for
// *.test (sorted). Throws Error(ErrorKind::Io) for a path that does not exist.
std::vector<std::string> collect_test_files(const std::vector<std::string>& paths);

// "N passed, M failed", with ", K skipped" when K > 0.
std::string summary_line(int passed, int failed, int skipped);

}  // namespace tally::slt
