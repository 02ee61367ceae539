// tally run: execute a SQL script against generated or loaded tables.
#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include "cli/commands.h"
#include "cli/interrupts.h"
#include "cli/parser_warm_up.h"
#include "cli/shared_options.h"
#include "compiler/common/elapsed.h"
#include "compiler/common/error.h"
#include "runtime/cuda/device.h"
#include "runtime/session/database.h"

namespace tally::cli {

namespace {

struct RunArgs {
  std::string file;
  std::string sql;
  GeneratedData data;
  OutputArgs output;
  bool explain = false;
  std::vector<std::string> params;
  std::string strategy = "auto";
  uint64_t hash_capacity = 0;
  bool emit_cuda = false;
  std::string arch = default_gpu_target().arch;
};

// --device gpu without a usable GPU fails before the data is generated (minutes at a
// large scale factor), with the error the first query would give.
void require_gpu() {
  int devices = 0;
  try {
    devices = cuda::device_count();
  } catch (const Error& e) {
    throw Error(ErrorKind::Device, fmt::format("--device gpu needs a GPU: {}", e.what()));
  }
  if (devices == 0) {
    throw Error(ErrorKind::Device,
                "--device gpu needs a GPU: the CUDA driver sees none; run with --device cpu");
  }
}

int run(const RunArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  std::string sql;
  try {
    sql = args.sql.empty() ? read_sql_file(args.file) : args.sql;
    if (parse_device(args.output.device) == DeviceChoice::Gpu && !args.output.compile_only) {
      require_gpu();
    }
    Database db;
    handle_interrupts(InterruptMode::Quit);
    auto parser_warm = warm_parser_while_loading();
    std::future<double> gpu_warm = warm_gpu_while_loading(db, args.output);
    generate_tables(args.data, db, args.output.timing);
    ExecOptions options = exec_options_for(args.output);
    options.cancelled = cancel_flag();
    options.parameters = args.params;
    options.explain = args.explain;
    options.strategy = args.strategy;
    options.hash_capacity = args.hash_capacity;
    options.emit_cuda = args.emit_cuda;
    options.compile_only = args.output.compile_only;
    options.arch = args.arch;
    OutputArgs output = args.output;
    output.source_only = output.compile_only && args.emit_cuda;
    // A Ctrl-C now stops the statement at its next check: a COPY into a database leaves
    // the table as it was, and the exit status says the script did not finish.
    handle_interrupts(InterruptMode::Cancel);
    db.execute_script(sql, options,
                      [&](const StatementOutcome& outcome) { print_outcome(outcome, output); });
    // Kernels still compiling for the disk cache (adaptive compilation); Ctrl-C leaves them.
    handle_interrupts(InterruptMode::Quit);
    const auto wait_start = std::chrono::steady_clock::now();
    db.wait_for_compiles();
    const double waited_ms = ms_since(wait_start);
    if (args.output.timing) {
      const std::string waited =
          waited_ms >= 0.05
              ? fmt::format(", of which {:.1f} ms waiting for background compiles", waited_ms)
              : "";
      if (const double warmed = gpu_warm.valid() ? gpu_warm.get() : 0; warmed > 0) {
        std::cerr << fmt::format(
            "GPU warm-up: {:.1f} ms (the device opened, the uploads' kernels loaded and the "
            "interpreter's {} while the data loaded)\n",
            warmed,
            db.warmed_interpreter() ? "loaded" : "begun compiling: no kernel cache held it");
      }
      std::cerr << fmt::format("Total: {:.1f} ms (the whole command{})\n", ms_since(start), waited);
    }
  } catch (const std::exception& e) {
    return report_error(e, sql);
  }
  return 0;
}

void add_common_options(CLI::App* cmd, RunArgs& args) {
  CLI::Option* file =
      cmd->add_option("file", args.file, "SQL script ('-' or none: standard input)");
  cmd->add_option("-e,--execute", args.sql, "SQL text instead of a file")->excludes(file);
  add_data_options(cmd, args.data);
  cmd->add_option("--strategy", args.strategy,
                  "GPU grouping strategy: auto, thread, block, direct, hash")
      ->check(CLI::IsMember({"auto", "thread", "block", "direct", "hash"}));
  cmd->add_option("--hash-capacity", args.hash_capacity,
                  "First GPU hash-table capacity (small values exercise grow-and-rerun)");
  cmd->add_flag("--emit-cuda", args.emit_cuda,
                "Print the generated CUDA source (tally compile: nothing else on stdout)");
  cmd->add_flag("--explain", args.explain, "Print the bound query IR and the GPU plan on stderr");
  add_param_option(cmd, args.params);
}

}  // namespace

Runner add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd =
      app.add_subcommand("run", "Run a SQL script (CREATE TABLE, COPY, INSERT, SELECT)");
  add_common_options(cmd, *args);
  add_output_options(cmd, args->output);
  add_adaptive_compile_option(cmd, args->output);
  add_quick_kernels_option(cmd, args->output);
  add_interpreter_option(cmd, args->output);
  return [args] { return run(*args); };
}

Runner add_compile_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "compile",
      "Generate and NVRTC-compile each SELECT's kernels without running them (no GPU needed)");
  add_common_options(cmd, *args);
  cmd->add_option("--arch", args->arch, "NVRTC target: sm_90, or compute_90 for PTX");
  add_timing_option(cmd, args->output);
  args->output.compile_only = true;
  args->output.device = "cpu";  // CREATE/COPY/INSERT statements of the script still run
  return [args] { return run(*args); };
}

}  // namespace tally::cli
