// Loads as the tally command shows them: the --timing line of COPY and of files in FROM
// (cli/load_lines.h), on stderr only, and no progress line where stderr is no terminal.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "cli/load_lines.h"
#include "tests/unit/support/shell.h"

namespace tally {
namespace {

struct Run {
  int status = -1;
  std::string out, err;
};

// Runs `tally ARGS` (already quoted) in `dir` with stdout and stderr in files; `env`:
// assignments put before the command.
Run tally_in(const test::ScratchDir& dir, const std::string& args, const std::string& env = "") {
  std::string out = (dir.path() / "stdout").string(), err = (dir.path() / "stderr").string();
  Run run;
  run.status = test::run_shell("cd " + test::shell_quote(dir.path().string()) + " && " + env + " " +
                               test::shell_quote(TALLY_BINARY) + " " + args + " </dev/null >" +
                               test::shell_quote(out) + " 2>" + test::shell_quote(err));
  run.out = test::slurp(out);
  run.err = test::slurp(err);
  return run;
}

size_t count_of(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST_CASE("cli loads: the --timing line gives rows - MB and MB/s") {
  CHECK(cli::load_timing_line({2'000'000, 96'100'000, 96'100'000, false, 1.21}) ==
        "load: 2,000,000 rows, 96.1 MB in 1.21 s (79 MB/s)");
  CHECK(cli::load_timing_line({1, 4, 4, false, 0.5}) == "load: 1 row, 0.0 MB in 0.50 s (0.0 MB/s)");
  CHECK(cli::load_timing_line({1234, 9'000'000, 2'000'000, true, 2}) ==
        "load: 1,234 rows, 9.0 MB (2.0 MB gzip) in 2.00 s (4.5 MB/s)");
}

TEST_CASE("cli loads: --timing reports COPY and a file in FROM on stderr alone") {
  test::ScratchDir dir("tally_cli_loads");
  std::ofstream(dir.path() / "sales.csv") << "region,amount\neast,1.5\nwest,2\neast,3\n";
  Run run = tally_in(dir, "run --device cpu --timing --format csv -e " +
                              test::shell_quote("CREATE TABLE t (r VARCHAR, a DECIMAL(5,1)); "
                                                "COPY t FROM 'sales.csv' (HEADER); "
                                                "SELECT COUNT(*) AS n FROM 'sales.csv'"));
  CHECK(run.status == 0);
  CHECK(count_of(run.err, "load: 3 rows, 0.0 MB in ") == 2);
  CHECK(count_of(run.err, " MB/s)\n") == 2);
  CHECK(run.out == "n\n3\n");
  // Without --timing nothing of it is said.
  run = tally_in(dir, "run --device cpu -e " + test::shell_quote("SELECT * FROM 'sales.csv'"));
  CHECK(run.status == 0);
  CHECK(count_of(run.err, "load:") == 0);
}

TEST_CASE("cli loads: no progress line when stderr is not a terminal") {
  test::ScratchDir dir("tally_cli_loads");
  {
    std::ofstream rows(dir.path() / "rows.csv");
    for (int i = 0; i < 500'000; ++i) rows << i << ",x\n";  // several MB: progress is told
  }
  Run run = tally_in(
      dir,
      "run --device cpu --timing -e " + test::shell_quote("CREATE TABLE t (a INTEGER, b VARCHAR); "
                                                          "COPY t FROM 'rows.csv'"),
      "TALLY_PROGRESS_DELAY=0");
  CHECK(run.status == 0);
  CHECK(count_of(run.err, "load: 500,000 rows") == 1);
  CHECK(count_of(run.err, "loading") == 0);
}

}  // namespace
}  // namespace tally
