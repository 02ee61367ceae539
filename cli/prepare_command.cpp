// tally prepare / tally exec: a SELECT prepared once (validated against its data, its
// kernels compiled into the disk cache) and run later, by name, from other processes.
// The statement lives in the statement store (cli/statement_store.h).
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/interrupts.h"
#include "cli/parser_warm_up.h"
#include "cli/shared_options.h"
#include "cli/statement_store.h"
#include "compiler/common/elapsed.h"
#include "compiler/common/error.h"
#include "runtime/compile/kernel_cache.h"
#include "runtime/cuda/device.h"

namespace tally::cli {

namespace {

struct PrepareArgs {
  std::string name;
  std::string file;
  std::string sql;  // -e: the SELECT itself instead of a file
  GeneratedData data;
  OutputArgs output;  // --timing
  bool list = false;
  std::string drop;
};

struct ExecArgs {
  std::string name;
  std::vector<std::string> params;        // after the name
  std::vector<std::string> param_values;  // -p, as run takes them
  std::string database;                   // --db: another database than prepare's
  OutputArgs output;
  bool explain = false;
};

// The parameter values, given after the name or with -p (not both: their order would be
// a guess).
std::vector<std::string> parameter_values(const ExecArgs& args) {
  if (!args.params.empty() && !args.param_values.empty()) {
    throw Error(ErrorKind::Execution,
                "give the parameter values after the statement name or with -p, not both");
  }
  return args.params.empty() ? args.param_values : args.params;
}

std::vector<std::string> type_names(const PreparedSelect& statement) {
  std::vector<std::string> names;
  for (const Type& type : statement.parameter_types()) names.push_back(type.to_string());
  return names;
}

std::string joined(const std::vector<std::string>& items, const char* empty) {
  if (items.empty()) return empty;
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

std::string data_flags(const GeneratedData& data) {
  std::string flags;
  if (data.tpch_sf > 0) flags += fmt::format(" --tpch {}", data.tpch_sf);
  if (data.orders_rows > 0) flags += fmt::format(" --orders {}", data.orders_rows);
  if (data.atable_rows > 0) flags += fmt::format(" --atable {}", data.atable_rows);
  if (data.zipf != 0) flags += fmt::format(" --zipf {}", data.zipf);
  if (data.seed != 0) flags += fmt::format(" --seed {}", data.seed);
  if (!data.database.empty()) flags += fmt::format(" --db {}", data.database);
  return flags.empty() ? "-" : flags.substr(1);
}

// The statement's kernels, compiled now for the GPU in hand (default_gpu_target() without a
// usable one) so that exec finds them in the disk cache. Returns what to tell the user.
std::string precompile(Database& db, const PreparedSelect& statement) {
  if (statement.query.table.empty()) return "no kernels: a query without FROM runs on the CPU";
  ExecOptions options;
  options.compile_only = true;
  options.arch = cuda::gpu_target_in_hand().arch;
  try {
    StatementOutcome outcome = db.execute_prepared(statement, options);
    bool cached = KernelCache(KernelCacheConfig::from_environment()).enabled();
    return fmt::format("kernels compiled for {}{}", options.arch,
                       cached ? " into the disk kernel cache" : " (the disk cache is disabled)");
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::Unsupported) throw;
    return fmt::format("no kernels: the GPU does not run it ({}); exec uses the CPU engine",
                       e.what());
  }
}

int prepare(const PrepareArgs& args) {
  StatementStore store = StatementStore::from_environment();
  check_statement_name(args.name);
  std::string sql = args.sql.empty() ? read_sql_file(args.file) : args.sql;
  try {
    Database db;
    auto parser_warm = warm_parser_while_loading();
    generate_tables(args.data, db, args.output.timing);
    auto start = std::chrono::steady_clock::now();
    auto statement = db.prepare(sql);
    double prepare_ms = ms_since(start);
    start = std::chrono::steady_clock::now();
    std::string kernels = precompile(db, *statement);
    if (args.output.timing) {
      std::cerr << fmt::format("Time: parse and bind {:.2f} ms, kernels {:.1f} ms\n", prepare_ms,
                               ms_since(start));
    }
    StoredStatement stored{args.name, sql, args.data, type_names(*statement)};
    // exec may run from another folder.
    if (!stored.data.database.empty()) {
      stored.data.database = std::filesystem::absolute(stored.data.database).string();
    }
    store.save(stored);
    std::cout << fmt::format("PREPARE {}: {} parameter{} ({}); {}\n", args.name,
                             stored.parameter_types.size(),
                             stored.parameter_types.size() == 1 ? "" : "s",
                             joined(stored.parameter_types, "none"), kernels);
  } catch (const std::exception& e) {
    return report_error(e, sql);
  }
  return 0;
}

// The SQL on one line without its comment lines, cut to `width`, for --list.
std::string one_line(const std::string& sql, size_t width) {
  std::string line;
  std::istringstream lines(sql);
  for (std::string text; std::getline(lines, text);) {
    size_t start = text.find_first_not_of(" \t\r");
    if (start == std::string::npos || text.compare(start, 2, "--") == 0) continue;
    for (char c : text.substr(start)) {
      if (c == '\t' || c == '\r') c = ' ';
      if (c == ' ' && (line.empty() || line.back() == ' ')) continue;
      line += c;
    }
    line += ' ';
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line.size() <= width ? line : line.substr(0, width - 3) + "...";
}

int list(const StatementStore& store) {
  std::vector<std::string> names = store.names();
  std::cout << fmt::format("{:<20}  {:<24}  {:<24}  {}\n", "name", "parameters", "data", "sql");
  for (const auto& name : names) {
    try {
      StoredStatement s = store.load(name);
      std::cout << fmt::format("{:<20}  {:<24}  {:<24}  {}\n", name, joined(s.parameter_types, "-"),
                               data_flags(s.data), one_line(s.sql, 60));
    } catch (const Error& e) {
      std::cout << fmt::format("{:<20}  unusable: {}\n", name, e.what());
    }
  }
  std::cout << fmt::format("{} statement{} in {}\n", names.size(), names.size() == 1 ? "" : "s",
                           store.directory().string());
  return 0;
}

int run_prepare_command(const PrepareArgs& args) {
  try {
    if (args.list) return list(StatementStore::from_environment());
    if (!args.drop.empty()) {
      StatementStore store = StatementStore::from_environment();
      if (!store.remove(args.drop)) store.load(args.drop);  // throws "does not exist"
      std::cout << fmt::format("DROP {}\n", args.drop);
      return 0;
    }
    if (args.name.empty() || (args.file.empty() && args.sql.empty())) {
      throw Error(ErrorKind::Io,
                  "prepare needs a NAME and a FILE or -e SQL (or --list, or --drop NAME)");
    }
  } catch (const std::exception& e) {
    return report_error(e, "");
  }
  return prepare(args);
}

int exec(const ExecArgs& args) {
  std::string sql;
  try {
    StoredStatement stored = StatementStore::from_environment().load(args.name);
    sql = stored.sql;
    // Another database replaces the statement's data: nothing is generated over it.
    if (!args.database.empty()) stored.data = GeneratedData{.database = args.database};
    const std::vector<std::string> params = parameter_values(args);
    if (params.size() != stored.parameter_types.size()) {
      throw Error(ErrorKind::Execution,
                  fmt::format("prepared statement \"{}\" takes {} parameter{} ({}) but {} {} given",
                              args.name, stored.parameter_types.size(),
                              stored.parameter_types.size() == 1 ? "" : "s",
                              joined(stored.parameter_types, "none"), params.size(),
                              params.size() == 1 ? "was" : "were"));
    }
    Database db;
    handle_interrupts(InterruptMode::Quit);
    auto parser_warm = warm_parser_while_loading();
    generate_tables(stored.data, db, args.output.timing);
    auto start = std::chrono::steady_clock::now();
    auto statement = db.prepare(stored.sql);
    double prepare_ms = ms_since(start);
    if (type_names(*statement) != stored.parameter_types) {
      throw Error(ErrorKind::Cache,
                  fmt::format("prepared statement \"{}\" now binds with parameter types ({}), "
                              "not the ({}) it was prepared with; prepare it again",
                              args.name, joined(type_names(*statement), "none"),
                              joined(stored.parameter_types, "none")));
    }
    ExecOptions options = exec_options_for(args.output);
    options.parameters = params;
    options.explain = args.explain;
    options.cancelled = cancel_flag();
    handle_interrupts(InterruptMode::Cancel);
    StatementOutcome outcome = db.execute_prepared(*statement, options);
    outcome.timings.bind_ms = prepare_ms;  // parse and bind, as prepare did them
    print_outcome(outcome, args.output);
  } catch (const std::exception& e) {
    return report_error(e, sql);
  }
  return 0;
}

}  // namespace

Runner add_prepare_command(CLI::App& app) {
  auto args = std::make_shared<PrepareArgs>();
  CLI::App* cmd = app.add_subcommand(
      "prepare",
      "Save a SELECT under a name for tally exec: check it against its data and compile its "
      "kernels into the disk cache");
  cmd->add_option("name", args->name, "Statement name (letters, digits, _)");
  CLI::Option* file =
      cmd->add_option("file", args->file, "File holding one SELECT, with ? for parameters");
  cmd->add_option("-e,--execute", args->sql, "The SELECT itself instead of a file")->excludes(file);
  add_data_options(cmd, args->data);
  add_timing_option(cmd, args->output);
  cmd->add_flag("--list", args->list, "List the prepared statements");
  cmd->add_option("--drop", args->drop, "Delete the prepared statement of this name");
  return [args] { return run_prepare_command(*args); };
}

Runner add_exec_command(CLI::App& app) {
  auto args = std::make_shared<ExecArgs>();
  CLI::App* cmd =
      app.add_subcommand("exec", "Run a statement saved by tally prepare with parameter values");
  cmd->add_option("name", args->name, "Statement name")->required();
  cmd->add_option("params", args->params, "Values of the '?' parameters, in order");
  add_param_option(cmd, args->param_values);
  cmd->add_option("--db", args->database,
                  "Run over this database folder instead of the data the statement was prepared "
                  "with");
  add_output_options(cmd, args->output);
  cmd->add_flag("--explain", args->explain, "Print the bound query IR and the GPU plan on stderr");
  return [args] { return exec(*args); };
}

}  // namespace tally::cli
