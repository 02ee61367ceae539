// tally run: execute a SQL script against generated or loaded tables.
#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "compiler/error.h"
#include "runtime/data/paper_tables.h"
#include "runtime/data/tpch_lineitem.h"
#include "runtime/database.h"
#include "runtime/result_format.h"

namespace tally::cli {

namespace {

struct RunArgs {
  std::string file;
  std::string sql;
  double tpch_sf = 0;
  size_t orders_rows = 0;
  size_t atable_rows = 0;
  double zipf = 0;
  uint64_t seed = 0;
  std::string device = "auto";
  std::string format = "table";
  bool explain = false;
  bool timing = false;
  std::vector<std::string> params;
  std::string strategy = "auto";
  uint64_t hash_capacity = 0;
  bool emit_cuda = false;
  bool compile_only = false;
  std::string arch = "sm_90";
};

std::string read_sql(const RunArgs& args) {
  if (!args.sql.empty()) return args.sql;
  if (args.file.empty() || args.file == "-") {
    std::ostringstream s;
    s << std::cin.rdbuf();
    return s.str();
  }
  std::ifstream in(args.file, std::ios::binary);
  if (!in) throw Error(ErrorKind::Io, fmt::format("cannot open {}", args.file));
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void register_generated_tables(const RunArgs& args, Database& db, bool timing) {
  auto start = std::chrono::steady_clock::now();
  if (args.tpch_sf > 0) db.put_table(generate_lineitem(args.tpch_sf, args.seed));
  if (args.orders_rows > 0) db.put_table(generate_orders_table(args.orders_rows, 1000, args.seed));
  if (args.atable_rows > 0) {
    db.put_table(generate_atable(args.atable_rows, 1u << 20, args.zipf, args.seed));
  }
  if (timing && (args.tpch_sf > 0 || args.orders_rows > 0 || args.atable_rows > 0)) {
    std::cerr << fmt::format(
        "Data generation: {:.1f} ms\n",
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
  }
}

DeviceChoice parse_device(const std::string& d) {
  if (d == "cpu") return DeviceChoice::Cpu;
  if (d == "gpu") return DeviceChoice::Gpu;
  return DeviceChoice::Auto;
}

OutputFormat parse_format(const std::string& f) {
  if (f == "csv") return OutputFormat::Csv;
  if (f == "json") return OutputFormat::Json;
  return OutputFormat::Table;
}

void print_outcome(const StatementOutcome& outcome, const RunArgs& args) {
  if (!outcome.explain.empty()) std::cout << outcome.explain << "\n";
  if (!outcome.cuda.empty()) std::cout << outcome.cuda << "\n";
  if (args.compile_only && !outcome.timings.gpu.empty()) {
    std::cout << outcome.tag << ": " << outcome.timings.gpu << "\n";
    return;
  }
  if (outcome.result) {
    std::cout << format_result(*outcome.result, parse_format(args.format));
  } else if (args.format == "table") {
    std::cout << outcome.tag << "\n";
  }
  if (!outcome.notice.empty()) std::cerr << "note: " << outcome.notice << "\n";
  if (args.timing) {
    const Timings& t = outcome.timings;
    std::cerr << fmt::format("Time: parse {:.2f} ms, bind {:.2f} ms, execute {:.2f} ms ({})\n",
                             t.parse_ms, t.bind_ms, t.execute_ms,
                             outcome.result ? outcome.result->device : outcome.tag);
    if (!outcome.timings.gpu.empty()) std::cerr << "GPU: " << outcome.timings.gpu << "\n";
  }
  std::cout.flush();
}

int run(const RunArgs& args) {
  std::string sql;
  try {
    sql = read_sql(args);
    Database db;
    register_generated_tables(args, db, args.timing);
    ExecOptions options;
    options.device = parse_device(args.device);
    options.parameters = args.params;
    options.explain = args.explain;
    options.strategy = args.strategy;
    options.hash_capacity = args.hash_capacity;
    options.emit_cuda = args.emit_cuda;
    options.compile_only = args.compile_only;
    options.arch = args.arch;
    db.execute_script(sql, options,
                      [&](const StatementOutcome& outcome) { print_outcome(outcome, args); });
  } catch (const std::exception& e) {
    return report_error(e, sql);
  }
  return 0;
}

void add_common_options(CLI::App* cmd, RunArgs& args) {
  CLI::Option* file =
      cmd->add_option("file", args.file, "SQL script ('-' or none: standard input)");
  cmd->add_option("-e,--execute", args.sql, "SQL text instead of a file")->excludes(file);
  cmd->add_option("--tpch", args.tpch_sf, "Generate TPC-H lineitem at this scale factor")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--orders", args.orders_rows,
                  "Generate the seed paper's Query A table orders(zip, chargedamount, tax, "
                  "ordertotal) with this many rows");
  cmd->add_option("--atable", args.atable_rows,
                  "Generate the seed paper's Query B table atable(col1..col4) with this many rows");
  cmd->add_option("--zipf", args.zipf, "Zipf exponent of atable.col1 (0: uniform)");
  cmd->add_option("--seed", args.seed, "Seed of the data generators");
  cmd->add_option("--strategy", args.strategy, "GPU grouping strategy: auto, thread, direct, hash")
      ->check(CLI::IsMember({"auto", "thread", "direct", "hash"}));
  cmd->add_option("--hash-capacity", args.hash_capacity,
                  "First GPU hash-table capacity (small values exercise grow-and-rerun)");
  cmd->add_flag("--emit-cuda", args.emit_cuda, "Print the generated CUDA source");
  cmd->add_flag("--explain", args.explain, "Print the bound query IR and the GPU plan");
  // One value per -p, so that a file name after it is not taken as a second value.
  cmd->add_option("-p,--param", args.params, "Value of a '?' parameter, in order (repeatable)")
      ->allow_extra_args(false);
}

}  // namespace

Runner add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd =
      app.add_subcommand("run", "Run a SQL script (CREATE TABLE, COPY, INSERT, SELECT)");
  add_common_options(cmd, *args);
  cmd->add_option("--device", args->device, "Engine: auto, cpu or gpu")
      ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
  cmd->add_option("--format", args->format, "Output: table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  cmd->add_flag("--timing", args->timing, "Print parse/bind/execute times (and the GPU's split)");
  return [args] { return run(*args); };
}

Runner add_compile_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "compile",
      "Generate and NVRTC-compile each SELECT's kernels without running them (no GPU needed)");
  add_common_options(cmd, *args);
  cmd->add_option("--arch", args->arch, "NVRTC target: sm_90, or compute_90 for PTX");
  args->compile_only = true;
  args->device = "cpu";  // CREATE/COPY/INSERT statements of the script still run
  return [args] { return run(*args); };
}

}  // namespace tally::cli
