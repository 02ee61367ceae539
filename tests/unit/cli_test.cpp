// The tally command, run as a child process: output formats, error reports and exit codes.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/compile/nvrtc.h"
#include "runtime/cuda/device.h"
#include "tests/unit/support/json_check.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/text_check.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the system temp directory, removed when the test ends.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "tally_cli_XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

struct Outcome {
  bool exited = false;  // false: killed by a signal
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `tally ARGS...` in `cwd` (default: the test's own) with stdout and stderr captured
// in files.
Outcome tally(const std::vector<std::string>& args, const std::string& cwd = "") {
  TempDir dir;
  fs::path out = dir.path() / "stdout", err = dir.path() / "stderr";
  std::string command = cwd.empty() ? "" : "cd " + shell_quote(cwd) + " && ";
  command += shell_quote(TALLY_BINARY);
  for (const auto& a : args) command += " " + shell_quote(a);
  command += " </dev/null >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  int status = std::system(command.c_str());
  Outcome o;
  o.exited = WIFEXITED(status);
  o.exit_code = o.exited ? WEXITSTATUS(status) : -1;
  o.out = test::read_text_file(out.string());
  o.err = test::read_text_file(err.string());
  return o;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string trim_right(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

void write_file(const fs::path& path, const std::string& text) {
  FILE* f = fopen(path.string().c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(fwrite(text.data(), 1, text.size(), f) == text.size());
  fclose(f);
}

// A failure reported cleanly: exit code 1 (not a signal), a message on stderr, nothing
// that looks like a crash.
void expect_clean_failure(const Outcome& o) {
  CHECK(o.exited);
  CHECK(o.exit_code == 1);
  CHECK_FALSE(o.err.empty());
  CHECK_FALSE(contains(o.err, "terminate called"));
}

const char* const kSmallTable =
    "CREATE TABLE t (k VARCHAR(12), v DECIMAL(5,2), n INTEGER);"
    "INSERT INTO t VALUES ('a,b', 1.50, NULL), ('plain', -2.00, 3), ('say \"hi\"', 0.25, 40);";

TEST_CASE("cli: run -e prints a psql-style table with the statement tags") {
  Outcome o = tally({"run", "-e",
                     "CREATE TABLE t (k VARCHAR(5), v INTEGER);"
                     "INSERT INTO t VALUES ('a', 1), ('bb', 22), ('c', NULL);"
                     "SELECT k, v FROM t ORDER BY k"});
  CHECK(o.exit_code == 0);
  std::vector<std::string> lines = lines_of(o.out);
  REQUIRE(lines.size() == 8);
  CHECK(lines[0] == "CREATE TABLE");
  CHECK(lines[1] == "INSERT 0 3");
  // Headers centred, text left-aligned, numbers right-aligned, NULL empty, a row count.
  CHECK(trim_right(lines[2]) == " k  | v");
  CHECK(lines[3] == "----+----");
  CHECK(lines[4] == " a  |  1");
  CHECK(lines[5] == " bb | 22");
  CHECK(trim_right(lines[6]) == " c  |");
  CHECK(lines[7] == "(3 rows)");
}

Outcome small_table_as(const std::string& format) {
  return tally({"run", "--format", format, "-e",
                std::string(kSmallTable) + "SELECT k, v, n FROM t ORDER BY v"});
}

TEST_CASE("cli: --format csv prints RFC 4180 CSV and nothing for other statements") {
  Outcome o = small_table_as("csv");
  CHECK(o.exit_code == 0);
  CHECK(o.out ==
        "k,v,n\n"
        "plain,-2.00,3\n"
        "\"say \"\"hi\"\"\",0.25,40\n"
        "\"a,b\",1.50,\n");
}

TEST_CASE("cli: --format json prints an array of objects - DECIMAL as strings") {
  Outcome o = small_table_as("json");
  CHECK(o.exit_code == 0);
  CHECK(o.out ==
        "[\n"
        " {\"k\": \"plain\", \"v\": \"-2.00\", \"n\": 3},\n"
        " {\"k\": \"say \\\"hi\\\"\", \"v\": \"0.25\", \"n\": 40},\n"
        " {\"k\": \"a,b\", \"v\": \"1.50\", \"n\": null}\n"
        "]\n");
}

TEST_CASE("cli: --explain shows the scan columns - on stderr") {
  Outcome o = tally({"run", "--tpch", "0.001", "--explain", "-e",
                     "SELECT COUNT(*) AS n FROM lineitem WHERE l_discount > 0.05 "
                     "GROUP BY l_shipmode"});
  CHECK(o.exit_code == 0);
  // The result shows only "n": the column names come from the plan.
  CHECK(contains(o.err, "l_discount"));
  CHECK(contains(o.err, "l_shipmode"));
  CHECK(contains(o.err, "lineitem"));
  CHECK_FALSE(contains(o.out, "l_discount"));
}

TEST_CASE("cli: with --format json - --explain and --timing - stdout is one JSON value") {
  Outcome o = tally({"run", "--tpch", "0.001", "--format", "json", "--explain", "--timing", "-e",
                     "SELECT l_shipmode, COUNT(*) AS n, SUM(l_quantity) AS q FROM lineitem "
                     "WHERE l_discount > 0.05 GROUP BY l_shipmode ORDER BY l_shipmode"});
  CHECK(o.exit_code == 0);
  test::JsonCheck json(o.out);
  CHECK_MESSAGE(json.valid(), json.error(), "\n", o.out);
  CHECK(o.out.starts_with("[\n {\"l_shipmode\": \"AIR\", \"n\": "));
  CHECK(contains(o.err, "l_discount"));
  CHECK(contains(o.err, "Time:"));
  // The check itself is strict.
  CHECK_FALSE(test::JsonCheck("[1, 2]\nTime: 1 ms").valid());
  CHECK_FALSE(test::JsonCheck("{\"a\": 01}").valid());
  CHECK_FALSE(test::JsonCheck("[\"a\",]").valid());
  CHECK(test::JsonCheck(" {\"a\": [true, null, -1.5e3, \"\\u00e9\\n\"]}\n").valid());
}

TEST_CASE("cli: compile --emit-cuda prints the compilable source alone on stdout") {
  std::vector<std::string> args = {"compile",
                                   "--tpch",
                                   "0.001",
                                   "--emit-cuda",
                                   "-e",
                                   "SELECT l_returnflag, SUM(l_quantity) FROM lineitem "
                                   "GROUP BY l_returnflag"};
  Outcome o = tally(args);
  args.push_back("--explain");
  Outcome explained = tally(args);
  REQUIRE(o.exit_code == 0);
  REQUIRE(explained.exit_code == 0);
  CHECK(contains(o.out, "tally_scan"));
  CHECK_FALSE(contains(o.out, "GPU strategy"));
  CHECK_FALSE(contains(o.out, "COMPILE"));
  CHECK(contains(o.err, "COMPILE sm_90"));
  CHECK_FALSE(contains(o.err, "GPU strategy"));
  // --explain adds the plan to stderr and nothing to stdout.
  CHECK(explained.out == o.out);
  CHECK(contains(explained.err, "GPU strategy"));
  if (cuda::nvrtc_available()) CHECK_NOTHROW(cuda::compile_cuda(o.out, "emitted.cu"));
}

TEST_CASE("cli: --timing prints the times on stderr") {
  Outcome o = tally({"run", "--timing", "-e", "SELECT 1 AS one"});
  CHECK(o.exit_code == 0);
  CHECK(contains(o.err, "Time:"));
  CHECK_FALSE(contains(o.out, "Time:"));
}

TEST_CASE("cli: a syntax error names line and column - shows a caret - exits 1") {
  //                                         column 23 -v
  Outcome o = tally({"run", "-e", "SELECT 1 FROM t WHERE )"});
  expect_clean_failure(o);
  CHECK(contains(o.err, "line 1, column 23"));
  bool caret_line = false;
  for (const auto& line : lines_of(o.err)) {
    if (trim_right(line).size() >= 1 && trim_right(line).back() == '^' &&
        line.find_first_not_of(' ') == trim_right(line).size() - 1) {
      caret_line = true;
    }
  }
  CHECK(caret_line);
  CHECK(o.out.empty());
  // The whole script is parsed first: a syntax error on line 2 runs nothing of line 1.
  //                                                       column 15 -v
  Outcome later = tally({"run", "-e", "CREATE TABLE t (x INTEGER);\nSELECT x FROM )"});
  expect_clean_failure(later);
  CHECK(contains(later.err, "line 2, column 15"));
  CHECK(later.out.empty());
}

TEST_CASE("cli: an unknown column says it does not exist and suggests the near name") {
  Outcome o = tally({"run", "--tpch", "0.001", "-e", "SELECT SUM(l_quantiti) FROM lineitem"});
  expect_clean_failure(o);
  CHECK(contains(o.err, "l_quantiti"));
  CHECK(contains(o.err, "does not exist"));
  CHECK(contains(o.err, "did you mean"));
  CHECK(contains(o.err, "l_quantity"));
}

TEST_CASE("cli: --device gpu fails cleanly with a message about the GPU") {
  Outcome o = tally({"run", "--device", "gpu", "-e", "SELECT 1 AS one"});
  expect_clean_failure(o);
  CHECK((contains(o.err, "GPU") || contains(o.err, "gpu")));
}

TEST_CASE("cli: --device gpu without a GPU fails before generating any data") {
  if (cuda::gpu_available()) return;  // the check is about machines without one
  Outcome o = tally({"run", "--device", "gpu", "--timing", "--tpch", "0.01", "-e",
                     "SELECT COUNT(*) FROM lineitem"});
  expect_clean_failure(o);
  CHECK(contains(o.err, "device cpu"));  // the library's hint: "choose the CPU engine (device cpu)"
  CHECK_FALSE(contains(o.err, "Data generation"));  // --timing's line after generating
}

TEST_CASE("cli: a failing statement stops the script - earlier statements took effect") {
  TempDir dir;
  fs::path script = dir.path() / "script.sql";
  write_file(script,
             "CREATE TABLE t (x INTEGER);\n"
             "INSERT INTO t VALUES (1), (2);\n"
             "SELECT COUNT(*) AS before_count FROM t;\n"
             "SELECT SUM(10 / (x - 1)) AS failing FROM t;\n"
             "INSERT INTO t VALUES (3);\n"
             "SELECT COUNT(*) AS after_count FROM t;\n");
  Outcome o = tally({"run", "--format", "csv", script.string()});
  expect_clean_failure(o);
  CHECK(o.out == "before_count\n2\n");
  CHECK(contains(o.err, "division by zero"));
}

TEST_CASE("cli: gen lineitem writes a .tbl file that COPY loads with the same row count") {
  TempDir dir;
  Outcome gen = tally({"gen", "lineitem", "--sf", "0.001", "--out", dir.path().string()});
  REQUIRE(gen.exit_code == 0);
  fs::path tbl = dir.path() / "lineitem.tbl";
  REQUIRE(fs::exists(tbl));
  const size_t rows = generate_lineitem(0.001)->rows();
  CHECK(contains(gen.out, std::to_string(rows)));
  std::string sql =
      "CREATE TABLE lineitem_copy (l_orderkey BIGINT NOT NULL, l_partkey INTEGER NOT NULL,"
      " l_suppkey INTEGER NOT NULL, l_linenumber INTEGER NOT NULL,"
      " l_quantity DECIMAL(15,2) NOT NULL, l_extendedprice DECIMAL(15,2) NOT NULL,"
      " l_discount DECIMAL(15,2) NOT NULL, l_tax DECIMAL(15,2) NOT NULL,"
      " l_returnflag CHAR(1) NOT NULL, l_linestatus CHAR(1) NOT NULL,"
      " l_shipdate DATE NOT NULL, l_commitdate DATE NOT NULL, l_receiptdate DATE NOT NULL,"
      " l_shipinstruct CHAR(25) NOT NULL, l_shipmode CHAR(10) NOT NULL,"
      " l_comment VARCHAR(44) NOT NULL);"
      "COPY lineitem_copy FROM '" +
      tbl.string() +
      "';"
      "SELECT COUNT(*) AS n FROM lineitem_copy;";
  Outcome load = tally({"run", "--format", "csv", "-e", sql});
  CHECK(load.exit_code == 0);
  INFO(load.err);
  CHECK(load.out == "n\n" + std::to_string(rows) + "\n");
  // In table format the COPY tag reports the rows too.
  Outcome tagged = tally({"run", "-e", sql});
  CHECK(contains(tagged.out, "COPY " + std::to_string(rows)));
}

TEST_CASE("cli: --param binds the parameter of query_b") {
  // tally run --atable N generates atable with key range 2^20, uniform, seed 0.
  TablePtr atable = generate_atable(5000, 1u << 20, 0, 0);
  std::map<int64_t, int64_t> buckets;
  for (size_t r = 0; r < atable->rows(); ++r) ++buckets[atable->columns[0]->get_int(r) % 10];
  std::string expected = "bucket,n\n";
  for (const auto& [bucket, n] : buckets) expected += fmt::format("{},{}\n", bucket, n);
  Outcome o = tally({"run", "--atable", "5000", "--param", "10", "--format", "csv",
                     std::string(TALLY_SOURCE_DIR) + "/queries/query_b.sql"});
  CHECK(o.exit_code == 0);
  CHECK(o.out == expected);
  // Without the parameter the statement cannot run.
  Outcome missing = tally({"run", "--atable", "5000", "--format", "csv",
                           std::string(TALLY_SOURCE_DIR) + "/queries/query_b.sql"});
  expect_clean_failure(missing);
  CHECK(contains(missing.err, "parameter"));
}

TEST_CASE("cli: the sales script runs from the repository root as its comment says") {
  Outcome o = tally({"run", "--format", "csv", "queries/sales_script.sql"}, TALLY_SOURCE_DIR);
  CHECK(o.exit_code == 0);
  // Worked out by hand from queries/data/sales.csv (see queries_test.cpp): revenue is
  // SUM(units * price * (1 - COALESCE(discount, 0))) over the rows not returned.
  CHECK(o.out ==
        "region,sales,with_units,revenue,last_sale,products\n"
        "south,3,2,56.2250,2024-03-30,2\n"
        "north,2,2,32.5000,2024-01-17,1\n"
        "east,1,1,25.9200,2024-02-28,1\n"
        "west,1,1,5.0000,2024-01-01,0\n");
}

TEST_CASE("cli: a missing file is a clear I/O error") {
  Outcome o = tally({"run", "/nonexistent/tally/missing.sql"});
  expect_clean_failure(o);
  CHECK(contains(o.err, "I/O error"));
  CHECK(contains(o.err, "/nonexistent/tally/missing.sql"));
  Outcome copy = tally({"run", "-e",
                        "CREATE TABLE t (x INTEGER);"
                        "COPY t FROM '/nonexistent/tally/missing.csv'"});
  expect_clean_failure(copy);
  CHECK(contains(copy.err, "I/O error"));
  CHECK(contains(copy.err, "/nonexistent/tally/missing.csv"));
}

TEST_CASE("cli: --help exits 0 and lists the subcommands") {
  Outcome o = tally({"--help"});
  CHECK(o.exit_code == 0);
  CHECK(contains(o.out, "run"));
  CHECK(contains(o.out, "gen"));
  Outcome run_help = tally({"run", "--help"});
  CHECK(run_help.exit_code == 0);
  CHECK(contains(run_help.out, "--format"));
}

}  // namespace
}  // namespace tally
