// Loads as the tally command shows them: the --timing line of COPY and of files in FROM
// (cli/load_lines.h), on stderr only, and no progress line where stderr is no terminal.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "cli/load_lines.h"
#include "tests/unit/support/shell.h"

namespace tally {
namespace {

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
  test::TallyRun run =
      test::run_tally({"run", "--device", "cpu", "--timing", "--format", "csv", "-e",
                       "CREATE TABLE t (r VARCHAR, a DECIMAL(5,1)); "
                       "COPY t FROM 'sales.csv' (HEADER); "
                       "SELECT COUNT(*) AS n FROM 'sales.csv'"},
                      "", dir.path().string());
  CHECK(run.status == 0);
  CHECK(count_of(run.err, "load: 3 rows, 0.0 MB in ") == 2);
  CHECK(count_of(run.err, " MB/s)\n") == 2);
  CHECK(run.out == "n\n3\n");
  // Without --timing nothing of it is said.
  run = test::run_tally({"run", "--device", "cpu", "-e", "SELECT * FROM 'sales.csv'"}, "",
                        dir.path().string());
  CHECK(run.status == 0);
  CHECK(count_of(run.err, "load:") == 0);
}

TEST_CASE("cli loads: no progress line when stderr is not a terminal") {
  test::ScratchDir dir("tally_cli_loads");
  {
    std::ofstream rows(dir.path() / "rows.csv");
    for (int i = 0; i < 500'000; ++i) rows << i << ",x\n";  // several MB: progress is told
  }
  test::TallyRun run =
      test::run_tally({"run", "--device", "cpu", "--timing", "-e",
                       "CREATE TABLE t (a INTEGER, b VARCHAR); COPY t FROM 'rows.csv'"},
                      "TALLY_PROGRESS_DELAY=0", dir.path().string());
  CHECK(run.status == 0);
  CHECK(count_of(run.err, "load: 500,000 rows") == 1);
  CHECK(count_of(run.err, "loading") == 0);
}

}  // namespace
}  // namespace tally
