// tally: compile and run GROUP BY / aggregate SQL.
#include <unistd.h>

#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"tally: a JIT query compiler for GROUP BY / aggregate SQL on NVIDIA GPUs"};
  // No subcommand: the shell on a terminal, else the piped script as `tally run` runs it.
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("tally ") + TALLY_VERSION);
  auto run = tally::cli::add_run_command(app);
  auto gen = tally::cli::add_gen_command(app);
  auto compile = tally::cli::add_compile_command(app);
  auto cache = tally::cli::add_cache_command(app);
  auto prepare = tally::cli::add_prepare_command(app);
  auto exec = tally::cli::add_exec_command(app);
  auto shell = tally::cli::add_shell_command(app);
  std::string help_topic;
  app.add_subcommand("help", "Show the help of tally or of one subcommand")
      ->add_option("command", help_topic, "A subcommand (run, shell, ...)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    if (app.got_subcommand("run")) return run();
    if (app.got_subcommand("gen")) return gen();
    if (app.got_subcommand("compile")) return compile();
    if (app.got_subcommand("cache")) return cache();
    if (app.got_subcommand("prepare")) return prepare();
    if (app.got_subcommand("exec")) return exec();
    if (app.got_subcommand("shell")) return shell();
    if (app.got_subcommand("help")) {
      // app.help() would describe the selected subcommand, `help` itself.
      CLI::App* topic = help_topic.empty() ? &app : app.get_subcommand(help_topic);
      std::cout << app.get_formatter()->make_help(topic, topic->get_name(),
                                                  CLI::AppFormatMode::Normal);
      return 0;
    }
    return isatty(STDIN_FILENO) ? shell() : run();
  } catch (const std::exception& e) {
    return tally::cli::report_error(e, "");
  }
}
