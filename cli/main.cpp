// tally: compile and run GROUP BY / aggregate SQL.
#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"tally: a JIT query compiler for GROUP BY / aggregate SQL on NVIDIA GPUs"};
  app.require_subcommand(1);
  auto run = tally::cli::add_run_command(app);
  auto gen = tally::cli::add_gen_command(app);
  auto compile = tally::cli::add_compile_command(app);
  auto cache = tally::cli::add_cache_command(app);
  auto prepare = tally::cli::add_prepare_command(app);
  auto exec = tally::cli::add_exec_command(app);
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
  } catch (const std::exception& e) {
    return tally::cli::report_error(e, "");
  }
  return 1;
}
