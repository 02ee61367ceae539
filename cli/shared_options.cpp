#include "cli/shared_options.h"

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/load_lines.h"
#include "cli/result_format.h"
#include "compiler/common/byte_size.h"
#include "compiler/common/elapsed.h"
#include "compiler/common/error.h"

namespace tally::cli {

namespace {

OutputFormat parse_format(const std::string& f) {
  if (f == "csv") return OutputFormat::Csv;
  if (f == "json") return OutputFormat::Json;
  if (f == "line") return OutputFormat::Line;
  return OutputFormat::Table;
}

// --timing's lines on stderr; `gpu_line`: the GPU's split too (compile prints it anyway).
void print_times(const StatementOutcome& outcome, bool gpu_line, double output_ms = 0) {
  if (outcome.load) std::cerr << load_timing_line(*outcome.load) << "\n";
  const Timings& t = outcome.timings;
  // Microseconds: a repeated small statement takes a fraction of a millisecond.
  std::string output = outcome.result ? fmt::format(", output {:.3f} ms", output_ms) : "";
  std::cerr << fmt::format("Time: parse {:.3f} ms, bind {:.3f} ms, execute {:.3f} ms ({}){}\n",
                           t.parse_ms, t.bind_ms, t.execute_ms,
                           outcome.result ? outcome.result->device : outcome.tag, output);
  if (gpu_line && !t.gpu.empty()) std::cerr << "GPU: " << t.gpu << "\n";
}

}  // namespace

void add_data_options(CLI::App* cmd, GeneratedData& data) {
  // Every subcommand spells these alike; --sf and --rows are tally gen's older spellings.
  cmd->add_option("--tpch,--sf", data.tpch_sf, "Generate TPC-H lineitem at this scale factor")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--orders", data.orders_rows,
                  "Generate the seed paper's Query A table orders(zip, chargedamount, tax, "
                  "ordertotal) with this many rows");
  cmd->add_option("--atable,--rows", data.atable_rows,
                  "Generate the seed paper's Query B table atable(col1..col4) with this many "
                  "rows (tally gen: the rows of the table it writes)");
  cmd->add_option("--zipf", data.zipf, "Zipf exponent of atable.col1 (0: uniform)");
  cmd->add_option("--seed", data.seed, "Seed of the data generators");
  cmd->add_option("--db", data.database,
                  "Open (or create) this database folder: its tables persist between runs");
}

void generate_tables(const GeneratedData& data, Database& db, bool timing) {
  auto start = std::chrono::steady_clock::now();
  if (!data.database.empty()) {
    if (data.database.find('\n') != std::string::npos) {
      throw Error(ErrorKind::Io, "--db: a database path cannot hold a line break");
    }
    db.open_store(data.database);
    if (timing) std::cerr << fmt::format("Database open: {:.1f} ms\n", ms_since(start));
    start = std::chrono::steady_clock::now();
  }
  add_generated_tables(data, db);
  if (timing && data.any()) {
    std::cerr << fmt::format("Data generation: {:.1f} ms\n", ms_since(start));
  }
}

void add_timing_option(CLI::App* cmd, OutputArgs& output) {
  cmd->add_flag("--timing", output.timing,
                "Print parse/bind/execute times (and the GPU's split, a load's rate) on stderr");
}

namespace {

// Sets `flag` on and adds `--no-...` (`name`) to set it off.
void add_off_switch(CLI::App* cmd, bool& flag, const std::string& name, const std::string& help) {
  flag = true;
  cmd->add_flag_callback(
      name, [&flag] { flag = false; }, help);
}

}  // namespace

void add_adaptive_compile_option(CLI::App* cmd, OutputArgs& output) {
  add_off_switch(cmd, output.adaptive_compile, "--no-adaptive-compile",
                 "Under --device auto, run a new statement over a small table on the GPU after "
                 "its kernels compile, not on the CPU engine while they compile (SET "
                 "adaptive_compile)");
}

void add_quick_kernels_option(CLI::App* cmd, OutputArgs& output) {
  add_off_switch(cmd, output.quick_kernels, "--no-quick-kernels",
                 "Compile a new statement's unrolled GPU kernels before it runs, not quick ones "
                 "first with the unrolled ones in the background (SET quick_kernels)");
}

void add_interpreter_option(CLI::App* cmd, OutputArgs& output) {
  add_off_switch(cmd, output.interpreter, "--no-interpreter",
                 "Compile a new statement's GPU kernels before it runs, not run it on the "
                 "precompiled interpreter while they compile (SET interpreted_kernels)");
}

void add_param_option(CLI::App* cmd, std::vector<std::string>& params) {
  // One value per -p, so that a file name after it is not taken as a second value.
  cmd->add_option("-p,--param", params, "Value of a '?' parameter, in order (repeatable)")
      ->allow_extra_args(false);
}

void add_output_options(CLI::App* cmd, OutputArgs& output) {
  cmd->add_option("--device", output.device, "Engine: auto, cpu or gpu")
      ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
  cmd->add_option("--device-memory-limit", output.device_memory_limit,
                  "Most GPU memory to use, e.g. 2GiB (columns beyond it are evicted; a "
                  "query that needs more fails)");
  cmd->add_option("--placement", output.placement,
                  "Where the GPU reads columns from: auto (host when they pass half the GPU "
                  "memory budget), device, or host (pinned memory, streamed in batches)")
      ->check(CLI::IsMember({"auto", "device", "host"}));
  cmd->add_option("--batch-rows", output.batch_rows,
                  "Rows of a streamed batch (rounded up to 1024; default: chosen from the GPU)");
  cmd->add_option("--devices", output.devices,
                  "GPUs to split a table across: all, or ordinals such as 0,1 (each runs the "
                  "same kernels over its share of the rows; the states combine on the host)");
  cmd->add_flag("--coprocess", output.coprocess,
                "Stream the table to one GPU while the CPU engine takes chunks of the same "
                "rows from the other end (aggregated queries)");
  cmd->add_option("--format", output.format, "Output: table, csv, json or line")
      ->check(CLI::IsMember({"table", "csv", "json", "line"}));
  add_timing_option(cmd, output);
  cmd->add_flag_callback(
      "--no-progress", [&output] { output.progress = false; },
      "No progress line for loads that run longer than a second (shown on a terminal only)");
}

DeviceChoice parse_device(const std::string& d) {
  if (d == "cpu") return DeviceChoice::Cpu;
  if (d == "gpu") return DeviceChoice::Gpu;
  return DeviceChoice::Auto;
}

ExecOptions exec_options_for(const OutputArgs& output) {
  ExecOptions options;
  options.device = parse_device(output.device);
  if (!output.device_memory_limit.empty()) {
    options.device_memory_limit =
        parse_byte_size(output.device_memory_limit, "--device-memory-limit");
  }
  options.placement = output.placement;
  options.batch_rows = output.batch_rows;
  options.devices = output.devices;
  options.coprocess = output.coprocess;
  options.adaptive_compile = output.adaptive_compile;
  options.kernel_tiers = output.quick_kernels ? KernelTiers::QuickFirst : KernelTiers::Unrolled;
  options.interpreted_kernels = output.interpreter ? "on" : "off";
  if (output.progress) options.load_progress = terminal_progress_line();
  return options;
}

std::string read_sql_file(const std::string& file) {
  std::ostringstream s;
  if (file.empty() || file == "-") {
    s << std::cin.rdbuf();
    return s.str();
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorKind::Io, fmt::format("cannot open {}", file));
  s << in.rdbuf();
  return s.str();
}

void print_outcome(const StatementOutcome& outcome, const OutputArgs& output) {
  // stdout carries results only; the plan, notes and times go to stderr.
  clear_progress_line();
  if (!outcome.explain.empty()) {
    flush_results();
    std::cerr << outcome.explain << "\n";
  }
  if (!outcome.cuda.empty()) std::cout << outcome.cuda << "\n";
  std::ostream& tags = output.source_only ? std::cerr : std::cout;
  if (output.compile_only && !outcome.timings.gpu.empty()) {
    tags << outcome.tag << ": " << outcome.timings.gpu << "\n";
    if (output.timing) print_times(outcome, false);
    return;
  }
  // Output time: spelling the rows and handing them to stdout, flushed.
  auto start = std::chrono::steady_clock::now();
  if (outcome.result) {
    write_result(std::cout, *outcome.result, parse_format(output.format));
    flush_results();
  } else if (output.format == "table") {
    tags << outcome.tag << "\n";
  }
  const double output_ms = ms_since(start);
  if (!outcome.notice.empty()) std::cerr << "note: " << outcome.notice << "\n";
  if (output.timing) print_times(outcome, true, output_ms);
  flush_results();
}

}  // namespace tally::cli
