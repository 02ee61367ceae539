// tally: compile and run GROUP BY / aggregate SQL.
#include <iostream>
#include <utility>
#include <vector>

#include "cli/commands.h"

namespace {

int run_subcommand(const CLI::App& app,
                   const std::vector<std::pair<const char*, tally::cli::Runner>>& runners) {
  for (const auto& [name, runner] : runners) {
    if (app.got_subcommand(name)) return runner();
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tally: a JIT query compiler for GROUP BY / aggregate SQL on NVIDIA GPUs"};
  app.require_subcommand(1);
  std::vector<std::pair<const char*, tally::cli::Runner>> runners = {
      {"run", tally::cli::add_run_command(app)},
      {"gen", tally::cli::add_gen_command(app)},
      {"compile", tally::cli::add_compile_command(app)},
      {"cache", tally::cli::add_cache_command(app)},
      {"prepare", tally::cli::add_prepare_command(app)},
      {"exec", tally::cli::add_exec_command(app)}};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    int status = run_subcommand(app, runners);
    // Whatever the subcommand printed must have reached stdout, or the exit status says so
    // (a failed subcommand has reported its error already).
    if (status == 0) tally::cli::flush_results();
    return status;
  } catch (const std::exception& e) {
    return tally::cli::report_error(e, "");
  }
}
