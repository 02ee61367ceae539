// One flag set across the tally command's subcommands: the data options (--tpch or --sf,
// --atable or --rows, --db), -p/--param and --timing are spelled alike wherever they apply,
// and the older spellings still work.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/shell.h"
#include "tests/unit/support/text_check.h"

namespace tally {
namespace {

using test::run_tally;
using test::TallyRun;

// The CSV result of `sql` run by `tally run` with these data options.
std::string run_csv(std::vector<std::string> args, const std::string& sql) {
  args.insert(args.begin(), {"run", "--device", "cpu", "--format", "csv", "-e", sql});
  TallyRun run = run_tally(args);
  CHECK_MESSAGE(run.status == 0, run.err);
  return run.out;
}

TEST_CASE("cli flags: gen takes the data options of run - and its own spellings") {
  test::ScratchDir dir("tally_cli_flags");
  const std::string out = dir.path().string();
  auto gen = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "gen");
    args.insert(args.end(), {"--out", out});
    TallyRun run = run_tally(args);
    CHECK_MESSAGE(run.status == 0, run.err);
    return run.out;
  };
  const std::string atable = "wrote 100 rows to " + out + "/atable.tbl\n";
  CHECK(gen({"--atable", "100"}) == atable);
  CHECK(gen({"atable", "--rows", "100"}) == atable);
  CHECK(gen({"atable", "--atable", "100"}) == atable);
  const std::string orders = "wrote 50 rows to " + out + "/orders.tbl\n";
  CHECK(gen({"--orders", "50"}) == orders);
  CHECK(gen({"orders", "--rows", "50"}) == orders);
  CHECK(gen({"--tpch", "0.001"}) == gen({"lineitem", "--sf", "0.001"}));
  TallyRun none = run_tally({"gen", "--out", out});
  CHECK(none.status == 1);
  CHECK(contains(none.err, "gen needs one table"));
}

TEST_CASE("cli flags: gen --db writes a table of the database") {
  test::ScratchDir dir("tally_cli_flags");
  const std::string db = (dir.path() / "sales.tdb").string(), out = dir.path().string();
  REQUIRE(run_tally({"run", "--db", db, "-e",
                     "CREATE TABLE t (a INTEGER, b VARCHAR); INSERT INTO t VALUES (1, 'x')"})
              .status == 0);
  TallyRun run = run_tally({"gen", "t", "--db", db, "--out", out});
  CHECK(run.status == 0);
  CHECK(test::slurp(dir.path() / "t.tbl") == "1|x|\n");
  TallyRun missing = run_tally({"gen", "t", "--db", out + "/none.tdb", "--out", out});
  CHECK(missing.status == 1);
  CHECK(contains(missing.err, "no database at " + out + "/none.tdb"));
}

TEST_CASE("cli flags: run and shell take --sf for --tpch and --rows for --atable") {
  CHECK(run_csv({"--sf", "0.001"}, "SELECT COUNT(*) AS n FROM lineitem") ==
        run_csv({"--tpch", "0.001"}, "SELECT COUNT(*) AS n FROM lineitem"));
  CHECK(run_csv({"--rows", "100"}, "SELECT COUNT(*) AS n FROM atable") == "n\n100\n");
  test::ScratchDir dir("tally_cli_flags");
  std::string script = (dir.path() / "q.sql").string();
  std::ofstream(script) << "SELECT COUNT(*) AS n FROM atable;\n";
  // The shell reading a piped script (stdin here is the file).
  int status = test::run_shell(test::shell_quote(TALLY_BINARY) + " shell --rows 7 --format csv <" +
                               test::shell_quote(script) + " >" +
                               test::shell_quote(script + ".out") + " 2>/dev/null");
  CHECK(status == 0);
  CHECK(test::slurp(script + ".out") == "n\n7\n");
}

TEST_CASE("cli flags: compile and prepare take --timing - exec takes -p and --db") {
  if (!cuda::nvrtc_available()) return;  // compile and prepare need NVRTC
  test::ScratchDir dir("tally_cli_flags");
  const std::string cache = "TALLY_CACHE_DIR=" + test::shell_quote((dir.path() / "c").string());
  TallyRun compile = run_tally({"compile", "--rows", "100", "--timing", "-p", "3", "-e",
                                "SELECT col1 % 4 AS k, COUNT(*) FROM atable WHERE col2 > ? "
                                "GROUP BY 1"});
  CHECK(compile.status == 0);
  CHECK(contains(compile.out, "COMPILE "));
  CHECK(contains(compile.err, "Time: parse "));
  TallyRun prepare = run_tally({"prepare", "q", "--rows", "100", "--timing", "-e",
                                "SELECT COUNT(*) AS n FROM atable WHERE col2 >= ?"},
                               cache);
  CHECK(prepare.status == 0);
  CHECK(contains(prepare.err, "Time: parse and bind "));
  auto exec = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"exec", "q", "--device", "cpu", "--format", "csv"});
    return run_tally(args, cache);
  };
  CHECK(exec({"0"}).out == "n\n100\n");
  CHECK(exec({"-p", "0"}).out == "n\n100\n");
  CHECK(exec({"--param", "0"}).out == "n\n100\n");
  TallyRun both = exec({"0", "-p", "0"});
  CHECK(both.status == 1);
  CHECK(contains(both.err, "after the statement name or with -p, not both"));
  // --db: the database's atable instead of the generated one.
  const std::string db = (dir.path() / "a.tdb").string();
  REQUIRE(run_tally({"run", "--db", db, "-e",
                     "CREATE TABLE atable (col1 BIGINT, col2 INTEGER, col3 DOUBLE, col4 "
                     "DECIMAL(12,2)); INSERT INTO atable VALUES (1, 10, 1, 1), (2, 20, 2, 2)"})
              .status == 0);
  CHECK(exec({"--db", db, "-p", "15"}).out == "n\n1\n");
}

}  // namespace
TEST_CASE("cli flags: gen --out FILE.tbl writes that file") {
  test::ScratchDir dir("tally_cli_flags");
  const std::string file = (dir.path() / "sub" / "x.tbl").string();
  TallyRun run = run_tally({"gen", "--atable", "10", "--out", file});
  CHECK_MESSAGE(run.status == 0, run.err);
  CHECK(run.out == "wrote 10 rows to " + file + "\n");
  CHECK(std::filesystem::is_regular_file(file));
}

TEST_CASE("cli flags: --format line prints a cell a line") {
  TallyRun run = run_tally({"run", "--device", "cpu", "--format", "line", "--atable", "4", "-e",
                            "SELECT col1 % 1 AS a, COUNT(*) AS longer FROM atable GROUP BY 1"});
  CHECK_MESSAGE(run.status == 0, run.err);
  CHECK(run.out == "     a = 0\nlonger = 4\n");
}

TEST_CASE("cli flags: --help shows the options' defaults") {
  TallyRun run = run_tally({"run", "--help"});
  CHECK(run.status == 0);
  CHECK(contains(run.out, "{auto,cpu,gpu}=auto"));  // --device
  // A command line tally cannot take exits 2 (README "Exit status").
  CHECK(run_tally({"run", "--no-such-option"}).status == 2);
  CHECK(run_tally({"run", "--device", "tpu", "-e", "SELECT 1"}).status == 2);
}

}  // namespace tally
