// tally calibrate: measures the grouping strategies on this GPU and writes the device profile
// whose rates the planner's auto choice follows (runtime/session/calibrate.h).
#include <fmt/format.h>

#include <iostream>

#include "cli/commands.h"
#include "compiler/common/error.h"
#include "runtime/gpu/device_rates_file.h"
#include "runtime/session/calibrate.h"
#include "tools/data/generated_data.h"
#include "tools/data/paper_tables.h"

namespace tally::cli {

namespace {

struct CalibrateArgs {
  size_t rows = size_t{1} << 26;
  std::string out;
};

void print_rates(const StrategyRates& rates) {
  std::cout << fmt::format("device: {}\nrows: {}\nread: {:.0f} GB/s (a scan without grouping)\n",
                           rates.device, rates.rows, rates.read_bytes_per_s / 1e9);
  std::cout << fmt::format("{:>8}  {:>10}  {:>12}\n", "strategy", "groups", "G rows/s");
  for (const auto& [strategy, points] : rates.points) {
    for (const RatePoint& p : points) {
      std::cout << fmt::format("{:>8}  {:>10}  {:>12.1f}\n", strategy, p.groups,
                               p.rows_per_s / 1e9);
    }
  }
}

int calibrate(const CalibrateArgs& args) {
  GeneratedData wanted;
  wanted.atable_rows = args.rows;
  require_memory_to_generate(wanted);
  Database db;
  // Keys spread over the largest group count measured, so every K is fully used.
  const uint64_t key_range = CalibrateOptions::default_calibration_groups().back();
  db.put_table(generate_atable(args.rows, key_range, 0, 1));
  CalibrateOptions options;
  options.progress = [](const std::string& line) { std::cerr << line << '\n'; };
  GpuEngine engine;
  const StrategyRates rates = calibrate_strategies(engine, db, "atable", options);
  const std::filesystem::path path =
      args.out.empty() ? strategy_rates_path(rates.device) : std::filesystem::path(args.out);
  if (path.empty()) {
    throw Error(ErrorKind::Cache,
                "no place for the device profile: set TALLY_CACHE_DIR or HOME, or give --out");
  }
  write_strategy_rates(path, rates);
  print_rates(rates);
  std::cerr << fmt::format("wrote the device profile {}\n", path.string());
  return 0;
}

}  // namespace

Runner add_calibrate_command(CLI::App& app) {
  auto args = std::make_shared<CalibrateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate", "Measure the grouping strategies on this GPU; auto then follows the profile");
  cmd->add_option("--rows", args->rows, "Rows of the calibration table (default 2^26)")
      ->check(CLI::Range(size_t{1} << 16, size_t{1} << 31));
  cmd->add_option("--out", args->out,
                  "Where to write the profile (default: beside the kernel cache; "
                  "$TALLY_DEVICE_PROFILE names another file, or off)");
  return [args] { return calibrate(*args); };
}

}  // namespace tally::cli
