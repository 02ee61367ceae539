// tally: compile and run GROUP BY / aggregate SQL.
#include <unistd.h>

#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.h"

namespace {

using Runners = std::vector<std::pair<const char*, tally::cli::Runner>>;

// The subcommand given; none: the shell on a terminal, else the piped script as `tally
// run` runs it.
int run_subcommand(const CLI::App& app, const Runners& runners) {
  for (const auto& [name, runner] : runners) {
    if (app.got_subcommand(name)) return runner();
  }
  const char* fallback = isatty(STDIN_FILENO) ? "shell" : "run";
  for (const auto& [name, runner] : runners) {
    if (std::string(name) == fallback) return runner();
  }
  return 1;
}

// `tally help [command]`: app.help() would describe the selected subcommand, `help` itself.
int print_help(CLI::App& app, const std::string& topic_name) {
  CLI::App* topic = topic_name.empty() ? &app : app.get_subcommand(topic_name);
  std::cout << app.get_formatter()->make_help(topic, topic->get_name(), CLI::AppFormatMode::Normal);
  return 0;
}

// `tally sales.tdb [options]`: a first argument that is neither an option nor a
// subcommand names a database, opened by the shell (on a terminal) or by `run` (a piped
// script): the arguments become `shell|run --db sales.tdb [options]`.
std::vector<std::string> with_database_argument(int argc, char** argv, const Runners& runners) {
  std::vector<std::string> args(argv, argv + argc);
  if (args.size() < 2 || args[1].empty() || args[1][0] == '-' || args[1] == "help") return args;
  for (const auto& [name, runner] : runners) {
    if (args[1] == name) return args;
  }
  std::string database = args[1];
  args.erase(args.begin() + 1);
  args.insert(args.begin() + 1, {isatty(STDIN_FILENO) ? "shell" : "run", "--db", database});
  return args;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tally: a JIT query compiler for GROUP BY / aggregate SQL on NVIDIA GPUs"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("tally ") + TALLY_VERSION);
  // Every option's default shows in --help (subcommands inherit this).
  app.option_defaults()->always_capture_default();
  const Runners runners = {{"run", tally::cli::add_run_command(app)},
                           {"gen", tally::cli::add_gen_command(app)},
                           {"compile", tally::cli::add_compile_command(app)},
                           {"cache", tally::cli::add_cache_command(app)},
                           {"prepare", tally::cli::add_prepare_command(app)},
                           {"exec", tally::cli::add_exec_command(app)},
                           {"shell", tally::cli::add_shell_command(app)},
                           {"calibrate", tally::cli::add_calibrate_command(app)}};
  std::string help_topic;
  app.add_subcommand("help", "Show the help of tally or of one subcommand")
      ->add_option("command", help_topic, "A subcommand (run, shell, ...)");
  std::vector<std::string> args = with_database_argument(argc, argv, runners);
  std::vector<char*> arg_pointers;
  for (std::string& arg : args) arg_pointers.push_back(arg.data());
  try {
    app.parse(static_cast<int>(arg_pointers.size()), arg_pointers.data());
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; any misuse of the command line 2 (README "Exit status").
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    if (app.got_subcommand("help")) return print_help(app, help_topic);
    int status = run_subcommand(app, runners);
    // Whatever the subcommand printed must have reached stdout, or the exit status says so
    // (a failed subcommand has reported its error already).
    if (status == 0) tally::cli::flush_results();
    return status;
  } catch (const std::exception& e) {
    return tally::cli::report_error(e, "");
  }
}
