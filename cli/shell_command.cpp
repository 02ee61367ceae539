// tally shell (and a bare `tally` on a terminal): an interactive session over one in-memory
// database, with line editing and history, statements over several lines, and dot commands.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <future>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/interrupts.h"
#include "cli/line_editor.h"
#include "cli/parser_warm_up.h"
#include "cli/result_format.h"
#include "cli/shared_options.h"
#include "cli/statement_end.h"
#include "compiler/common/error.h"
#include "runtime/session/database.h"

namespace tally::cli {

namespace {

struct ShellArgs {
  GeneratedData data;
  OutputArgs output;
  std::string history = default_history_file();
};

constexpr const char* kHelp =
    ".help                     this list\n"
    ".quit, .exit              leave (so does Ctrl-D)\n"
    ".timer on|off             print each statement's times\n"
    ".mode table|csv|json|line how results print\n"
    ".device auto|cpu|gpu      where SELECTs run\n"
    ".explain on|off           print each SELECT's plan\n"
    ".progress on|off          a progress line for long loads\n"
    ".tables                   the tables' names\n"
    ".schema [TABLE]           their CREATE TABLE statements\n"
    ".read FILE                run a SQL script\n"
    ".open DATABASE            use this database folder's tables (created when missing)\n"
    ".rows N                   longest table printed whole (0: no limit)\n"
    "Statements end with ';' and may span lines.\n";

// Splits a dot command into words (no quoting: names and paths without spaces).
std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

class Shell {
 public:
  explicit Shell(const ShellArgs& args) : output_(args.output), editor_(args.history) {
    handle_interrupts(InterruptMode::Quit);  // no session yet: Ctrl-C leaves
    gpu_warm_ = warm_gpu_while_loading(*db_, output_);
    generate_tables(args.data, *db_, args.output.timing);
    options_ = exec_options_for(output_);
    options_.cancelled = cancel_flag();
  }

  int run() {
    std::string pending;
    if (isatty(STDIN_FILENO)) {
      std::cerr << "tally shell: statements end with ';', .help lists the dot commands\n";
    }
    for (;;) {
      // Ctrl-C drops the line being typed here, and cancels what the line runs.
      handle_interrupts(InterruptMode::Prompt);
      const auto line = editor_.read(pending.empty() ? "tally> " : "   ...> ");
      if (interrupted()) {
        std::cerr << "^C\n";
        pending.clear();
        continue;
      }
      if (!line) break;
      handle_interrupts(InterruptMode::Cancel);
      if (pending.empty() && line->starts_with('.')) {
        editor_.remember(*line);
        if (!dot_command(words(*line))) break;
        continue;
      }
      if (pending.empty() && line->find_first_not_of(" \t\r") == std::string::npos) continue;
      pending += *line + "\n";
      if (!ends_statement(pending)) continue;
      editor_.remember(pending.substr(0, pending.size() - 1));
      execute(pending);
      pending.clear();
    }
    if (!editor_.save()) std::cerr << "note: could not write the history file\n";
    return 0;
  }

 private:
  // Runs `sql`; an error (a cancel too) is printed and the session goes on.
  void execute(const std::string& sql) {
    try {
      db_->execute_script(sql, options_, [&](const StatementOutcome& o) { print(o); });
    } catch (const std::exception& e) {
      report_error(e, sql);
    }
  }

  // In table mode a result longer than max_rows_ prints its first max_rows_ rows.
  void print(const StatementOutcome& outcome) {
    if (!outcome.result || output_.format != "table" || max_rows_ == 0 ||
        outcome.result->rows.size() <= max_rows_) {
      print_outcome(outcome, output_);
      return;
    }
    StatementOutcome shown = outcome;
    shown.result->rows.resize(max_rows_);
    std::string text = format_result(*shown.result, OutputFormat::Table);
    text.erase(text.rfind('(', text.size() - 2));  // the "(N rows)" footer of the cut copy
    std::cout << text
              << fmt::format("({} rows, {} shown)\n", outcome.result->rows.size(), max_rows_);
    shown.result.reset();
    shown.tag.clear();
    OutputArgs rest = output_;
    rest.format = "csv";  // no tag line: the rows were printed above
    print_outcome(shown, rest);
  }

  // Runs one dot command; false to leave the shell.
  bool dot_command(const std::vector<std::string>& w) {
    const std::string& name = w[0];
    const std::string arg = w.size() > 1 ? w[1] : "";
    if (name == ".quit" || name == ".exit") return false;
    if (name == ".help") {
      std::cout << kHelp;
    } else if (name == ".timer" && (arg == "on" || arg == "off")) {
      output_.timing = arg == "on";
    } else if (name == ".explain" && (arg == "on" || arg == "off")) {
      options_.explain = arg == "on";
    } else if (name == ".progress" && (arg == "on" || arg == "off")) {
      output_.progress = arg == "on";
      options_.load_progress = exec_options_for(output_).load_progress;
    } else if (name == ".mode" &&
               (arg == "table" || arg == "csv" || arg == "json" || arg == "line")) {
      output_.format = arg;
    } else if (name == ".device" && (arg == "auto" || arg == "cpu" || arg == "gpu")) {
      output_.device = arg;
      options_.device = parse_device(arg);
      db_->reset_setting("device");  // the latest choice wins over an earlier SET device
    } else if (name == ".rows" && !arg.empty() &&
               arg.find_first_not_of("0123456789") == std::string::npos) {
      max_rows_ = std::stoull(arg);
    } else if (name == ".tables") {
      for (const std::string& t : db_->table_names()) std::cout << t << "\n";
    } else if (name == ".schema") {
      print_schemas(arg);
    } else if (name == ".read" && !arg.empty()) {
      try {
        execute(read_sql_file(arg));
      } catch (const std::exception& e) {
        report_error(e, "");
      }
    } else if (name == ".open" && !arg.empty()) {
      open_database(arg);
    } else {
      std::cerr << fmt::format("error: unknown or incomplete command {}; .help lists them\n",
                               fmt::join(w, " "));
    }
    std::cout.flush();
    return true;
  }

  // Replaces the session's tables by the database at `path` (created when missing); on an
  // error the session keeps the tables it had.
  void open_database(const std::string& path) {
    try {
      auto opened = std::make_unique<Database>();
      opened->open_store(path);
      db_ = std::move(opened);
      std::cout << fmt::format("opened {} ({} tables)\n", path, db_->table_names().size());
    } catch (const std::exception& e) {
      report_error(e, "");
    }
  }

  void print_schemas(const std::string& only) {
    bool found = false;
    for (const std::string& name : db_->table_names()) {
      if (!only.empty() && name != only) continue;
      found = true;
      const TableSchema& s = db_->table(name)->schema;
      std::vector<std::string> columns;
      for (const ColumnSchema& c : s.columns) {
        columns.push_back(
            fmt::format("{} {}{}", c.name, c.type.to_string(), c.not_null ? " NOT NULL" : ""));
      }
      std::cout << fmt::format("CREATE TABLE {} ({});\n", name, fmt::join(columns, ", "));
    }
    if (!found && !only.empty()) std::cerr << fmt::format("error: no table {}\n", only);
  }

  std::future<size_t> parser_warm_ = warm_parser_while_loading();  // before the data loads
  std::unique_ptr<Database> db_ = std::make_unique<Database>();
  ExecOptions options_;
  OutputArgs output_;
  std::future<double> gpu_warm_;  // after db_: dropped (waited for) before it
  LineEditor editor_;
  size_t max_rows_ = 40;
};

}  // namespace

Runner add_shell_command(CLI::App& app) {
  auto args = std::make_shared<ShellArgs>();
  CLI::App* cmd = app.add_subcommand(
      "shell",
      "Interactive SQL (also a bare `tally` on a terminal): line editing, history, "
      "dot commands (.help)");
  add_data_options(cmd, args->data);
  add_output_options(cmd, args->output);
  add_adaptive_compile_option(cmd, args->output);
  add_quick_kernels_option(cmd, args->output);
  add_interpreter_option(cmd, args->output);
  cmd->add_option("--history", args->history,
                  "History file (default: $TALLY_HISTORY, else ~/.tally_history; '' for none)");
  return [args] {
    try {
      return Shell(*args).run();
    } catch (const std::exception& e) {
      return report_error(e, "");
    }
  };
}

}  // namespace tally::cli
