// What several subcommands share: the data options that generate tables, the output
// options, reading a SQL file, and printing a statement's outcome.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "runtime/session/database.h"
#include "tools/data/generated_data.h"

namespace tally::cli {

// --tpch (or --sf), --orders, --atable (or --rows), --zipf, --seed, --db: the same on every
// subcommand.
void add_data_options(CLI::App* cmd, GeneratedData& data);
// Generates the tables; with `timing`, says how long that took on stderr.
void generate_tables(const GeneratedData& data, Database& db, bool timing);

struct OutputArgs {
  std::string device = "auto";
  std::string device_memory_limit;  // --device-memory-limit: "2GiB"; empty: no limit
  std::string placement = "auto";   // --placement: auto, device or host
  uint64_t batch_rows = 0;          // --batch-rows: streamed batch size (0: chosen)
  std::string devices;              // --devices: all, or GPU ordinals 0,1
  bool coprocess = false;           // --coprocess: the CPU engine beside the streaming GPU
  // SET adaptive_compile's starting value: on for tally run and shell (--no-adaptive-compile
  // turns it off), off for the commands that compile ahead or run prepared statements.
  bool adaptive_compile = false;
  bool quick_kernels = false;  // SET quick_kernels's starting value, as adaptive_compile's
  bool interpreter = false;    // SET interpreted_kernels's starting value, likewise
  std::string format = "table";
  bool timing = false;
  bool progress = true;       // --no-progress: no progress line for long loads on a terminal
  bool compile_only = false;  // tally compile: print the compile line instead of rows
  // tally compile --emit-cuda: stdout carries the generated source alone (compile lines
  // and statement tags go to stderr), so that it can be compiled as it is.
  bool source_only = false;
};

// --device, --device-memory-limit, --format, --timing, --no-progress.
void add_output_options(CLI::App* cmd, OutputArgs& output);
// Turns adaptive compilation on, and adds --no-adaptive-compile (tally run and shell).
void add_adaptive_compile_option(CLI::App* cmd, OutputArgs& output);
// Turns quick kernels on, and adds --no-quick-kernels (tally run and shell).
void add_quick_kernels_option(CLI::App* cmd, OutputArgs& output);
// Turns the interpreted tier on, and adds --no-interpreter (tally run and shell).
void add_interpreter_option(CLI::App* cmd, OutputArgs& output);
// --timing alone (tally compile and prepare, which print no rows).
void add_timing_option(CLI::App* cmd, OutputArgs& output);
// -p/--param VALUE, repeatable: the values of '?' parameters in order.
void add_param_option(CLI::App* cmd, std::vector<std::string>& params);

DeviceChoice parse_device(const std::string& device);

// The execution options --device, --device-memory-limit and --no-progress give (the rest at
// defaults).
ExecOptions exec_options_for(const OutputArgs& output);

// The SQL text of `file` ('-' or empty: standard input). Throws Error(Io).
std::string read_sql_file(const std::string& file);

// Results (rows, statement tags, compile lines, --emit-cuda's source) on stdout; --explain's
// plan, notes and --timing's times on stderr.
void print_outcome(const StatementOutcome& outcome, const OutputArgs& output);

}  // namespace tally::cli
