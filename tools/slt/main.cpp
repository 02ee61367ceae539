// tally-slt: runs sqllogictest files (.test) against tally and reports what failed.
#include <CLI/CLI.hpp>
#include <iostream>

#include "tools/slt/runner.h"

namespace {

tally::slt::RunOptions run_options(const std::string& device) {
  tally::slt::RunOptions options;
  if (device == "gpu") {
    options.device = tally::DeviceChoice::Gpu;
    options.engine = "gpu";
  } else {
    // --device auto counts as cpu for skipif/onlyif: it is the engine that runs today.
    options.device = device == "cpu" ? tally::DeviceChoice::Cpu : tally::DeviceChoice::Auto;
    options.engine = "cpu";
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tally-slt: run sqllogictest files against tally"};
  std::string device = "cpu";
  std::vector<std::string> paths;
  app.add_option("--device", device, "Engine: cpu, gpu or auto")
      ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
  app.add_option("paths", paths, ".test files, or directories searched recursively for *.test")
      ->required();
  CLI11_PARSE(app, argc, argv);

  std::vector<std::string> files;
  try {
    files = tally::slt::collect_test_files(paths);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  if (files.empty()) {
    std::cerr << "error: no .test files found\n";  // a corpus that vanished must not pass
    return 1;
  }
  const tally::slt::RunOptions options = run_options(device);
  int passed = 0, failed = 0, skipped = 0;
  for (const auto& file : files) {
    tally::slt::FileReport report = tally::slt::run_test_path(file, options);
    std::cout << report.path << ": "
              << tally::slt::summary_line(report.passed, report.failed, report.skipped) << "\n";
    for (const auto& failure : report.failures) std::cout << failure << "\n";
    passed += report.passed;
    failed += report.failed;
    skipped += report.skipped;
  }
  std::cout << tally::slt::summary_line(passed, failed, skipped) << "\n";
  return failed > 0 ? 1 : 0;
}
