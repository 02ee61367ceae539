// tally: compile and run GROUP BY / aggregate SQL.
#include <unistd.h>

#include <iostream>
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tally: a JIT query compiler for GROUP BY / aggregate SQL on NVIDIA GPUs"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("tally ") + TALLY_VERSION);
  const Runners runners = {{"run", tally::cli::add_run_command(app)},
                           {"gen", tally::cli::add_gen_command(app)},
                           {"compile", tally::cli::add_compile_command(app)},
                           {"cache", tally::cli::add_cache_command(app)},
                           {"prepare", tally::cli::add_prepare_command(app)},
                           {"exec", tally::cli::add_exec_command(app)},
                           {"shell", tally::cli::add_shell_command(app)}};
  std::string help_topic;
  app.add_subcommand("help", "Show the help of tally or of one subcommand")
      ->add_option("command", help_topic, "A subcommand (run, shell, ...)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
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
