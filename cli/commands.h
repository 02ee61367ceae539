// The tally command's subcommands. Each registers its options on the CLI11 app and runs
// against the library; printing stays here, work stays in runtime/.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace tally::cli {

// Adds a subcommand; the returned function runs it (after parsing) and gives the exit code.
using Runner = std::function<int()>;
Runner add_run_command(CLI::App& app);
Runner add_gen_command(CLI::App& app);
Runner add_compile_command(CLI::App& app);
Runner add_cache_command(CLI::App& app);
Runner add_prepare_command(CLI::App& app);    // tally prepare
Runner add_exec_command(CLI::App& app);       // tally exec
Runner add_shell_command(CLI::App& app);      // tally shell
Runner add_calibrate_command(CLI::App& app);  // tally calibrate

// Prints an error (with the offending source line and a caret when it has a location)
// and returns the exit code for it: 130 for a cancelled statement, else 1.
int report_error(const std::exception& error, const std::string& source);

// Flushes stdout and throws Error(Io) "writing results failed: <reason>" when any write of
// results to it failed (a full disk, a closed pipe), so lost output never exits 0.
void flush_results();

}  // namespace tally::cli
