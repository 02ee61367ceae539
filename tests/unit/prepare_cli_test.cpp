// tally prepare / tally exec as child processes sharing a temporary cache directory: the
// statement store's round trip (results equal to tally run with the literal values), its
// errors (unknown names, corrupt files, wrong parameters, bad names), listing and dropping,
// and the kernels prepare leaves in the disk cache.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "cli/statement_store.h"
#include "runtime/compile/kernel_cache_dir.h"
#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/shell.h"
#include "tests/unit/support/text_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

using test::ScratchDir;
using test::shell_quote;

struct Run {
  int exit_code = -1;
  std::string out, err;
};

// `tally ARGS...` with TALLY_CACHE_DIR=`cache` and the disk cache enabled.
Run tally(const fs::path& cache, const std::vector<std::string>& args) {
  ScratchDir io("tally_prep_io");
  std::string command = fmt::format("env -u TALLY_CACHE_DISABLE TALLY_CACHE_DIR={} {}",
                                    shell_quote(cache.string()), shell_quote(TALLY_BINARY));
  for (const auto& a : args) command += " " + shell_quote(a);
  command += fmt::format(" </dev/null >{} 2>{}", shell_quote((io.path() / "out").string()),
                         shell_quote((io.path() / "err").string()));
  Run r;
  r.exit_code = test::run_shell(command);
  r.out = test::slurp(io.path() / "out");
  r.err = test::slurp(io.path() / "err");
  return r;
}

// Exit code 1 and `message` on stderr.
void expect_failure(const Run& r, const std::string& message) {
  CHECK(r.exit_code == 1);
  CHECK_MESSAGE(contains(r.err, message), r.err);
}

std::string query_path(const std::string& name) {
  return std::string(TALLY_SOURCE_DIR) + "/queries/" + name + ".sql";
}

fs::path statement_file(const fs::path& cache, const std::string& name) {
  return cache / "statements" / (name + ".tps");
}

void overwrite(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// query_b prepared as "b" over --atable 3000 --seed 5.
struct PreparedB {
  ScratchDir dir{"tally_prep"};
  fs::path cache = dir.path() / "cache";
  Run prepared =
      tally(cache, {"prepare", "b", query_path("query_b"), "--atable", "3000", "--seed", "5"});
};

TEST_CASE("prepare/exec: exec gives tally run's result with the value as a literal") {
  PreparedB b;
  REQUIRE(b.prepared.exit_code == 0);
  CHECK(contains(b.prepared.out, "PREPARE b: 1 parameter (BIGINT)"));
  CHECK(fs::exists(statement_file(b.cache, "b")));

  for (const char* modulus : {"10", "7"}) {
    Run exec = tally(b.cache, {"exec", "b", modulus, "--format", "csv", "--device", "cpu"});
    REQUIRE(exec.exit_code == 0);
    Run literal = tally(b.cache, {"run", "--atable", "3000", "--seed", "5", "--format", "csv", "-e",
                                  fmt::format("SELECT MOD(col1, {}) AS bucket, COUNT(*) AS n "
                                              "FROM atable GROUP BY 1 ORDER BY 1",
                                              modulus)});
    REQUIRE(literal.exit_code == 0);
    CHECK(exec.out == literal.out);
  }
  // And against the data computed here: the same generator, seed and key range as the CLI.
  TablePtr atable = generate_atable(3000, 1u << 20, 0, 5);
  std::map<int64_t, int64_t> buckets;
  for (size_t r = 0; r < atable->rows(); ++r) ++buckets[atable->columns[0]->get_int(r) % 10];
  std::string expected = "bucket,n\n";
  for (const auto& [bucket, n] : buckets) expected += fmt::format("{},{}\n", bucket, n);
  CHECK(tally(b.cache, {"exec", "b", "10", "--format", "csv"}).out == expected);
}

TEST_CASE("prepare/exec: DATE parameters are converted with the prepared types") {
  ScratchDir dir("tally_prep");
  fs::path cache = dir.path() / "cache";
  Run prepared =
      tally(cache, {"prepare", "window", query_path("monthly_window"), "--tpch", "0.002"});
  REQUIRE(prepared.exit_code == 0);
  CHECK(contains(prepared.out, "2 parameters (DATE, DATE)"));
  Run exec = tally(cache, {"exec", "window", "1995-03-15", "1995-03-15", "--format", "csv"});
  REQUIRE(exec.exit_code == 0);
  Run literal = tally(cache, {"run", "--tpch", "0.002", "--format", "csv", "-p", "1995-03-15", "-p",
                              "1995-03-15", query_path("monthly_window")});
  REQUIRE(literal.exit_code == 0);
  CHECK(exec.out == literal.out);
  CHECK(contains(exec.out, "month,n,avg_price\n"));
}

TEST_CASE("prepare/exec: an unknown name says so and suggests the near one") {
  PreparedB b;
  REQUIRE(b.prepared.exit_code == 0);
  expect_failure(tally(b.cache, {"exec", "bb", "10"}),
                 "prepared statement \"bb\" does not exist (did you mean \"b\"?)");
}

TEST_CASE("prepare/exec: a wrong parameter count or value is a clear error") {
  PreparedB b;
  REQUIRE(b.prepared.exit_code == 0);
  expect_failure(tally(b.cache, {"exec", "b", "10", "11"}),
                 "takes 1 parameter (BIGINT) but 2 were given");
  expect_failure(tally(b.cache, {"exec", "b"}), "but 0 were given");
  expect_failure(tally(b.cache, {"exec", "b", "ten"}), "parameter $1");
}

TEST_CASE("prepare/exec: a corrupt or truncated statement file is reported - not used") {
  PreparedB b;
  REQUIRE(b.prepared.exit_code == 0);
  fs::path file = statement_file(b.cache, "b");
  std::string good = test::slurp(file);

  std::string flipped = good;
  flipped[flipped.size() - 10] ^= 0x01;  // inside the SQL text
  overwrite(file, flipped);
  Run corrupt = tally(b.cache, {"exec", "b", "10"});
  expect_failure(corrupt, "prepared statement \"b\" is unusable");
  CHECK(contains(corrupt.err, "checksum mismatch"));
  CHECK(contains(corrupt.err, "prepare it again"));
  CHECK(corrupt.out.empty());

  overwrite(file, good.substr(0, good.size() / 2));
  expect_failure(tally(b.cache, {"exec", "b", "10"}), "checksum mismatch");

  overwrite(file, "garbage");
  expect_failure(tally(b.cache, {"exec", "b", "10"}), "not a tally prepared statement file");
  CHECK(contains(tally(b.cache, {"prepare", "--list"}).out, "unusable"));

  overwrite(file, good);
  CHECK(tally(b.cache, {"exec", "b", "10"}).exit_code == 0);
}

TEST_CASE("prepare: names with path characters are refused - list and drop") {
  PreparedB b;
  REQUIRE(b.prepared.exit_code == 0);
  for (const char* bad : {"../x", "a/b", "1abc", "a.b", "x y"}) {
    expect_failure(tally(b.cache, {"prepare", bad, query_path("query_b"), "--atable", "10"}),
                   "is not a statement name");
  }
  Run list = tally(b.cache, {"prepare", "--list"});
  CHECK(list.exit_code == 0);
  CHECK(contains(list.out, "BIGINT"));
  CHECK(contains(list.out, "--atable 3000 --seed 5"));
  CHECK(contains(list.out, "SELECT MOD(col1, ?) AS bucket"));
  CHECK(contains(list.out, "1 statement in"));

  Run drop = tally(b.cache, {"prepare", "--drop", "b"});
  CHECK(drop.exit_code == 0);
  CHECK(!fs::exists(statement_file(b.cache, "b")));
  CHECK(tally(b.cache, {"prepare", "--drop", "b"}).exit_code == 1);
  CHECK(contains(tally(b.cache, {"prepare", "--list"}).out, "0 statements"));
}

TEST_CASE("prepare: only one valid SELECT is stored") {
  ScratchDir dir("tally_prep");
  fs::path cache = dir.path() / "cache";
  fs::path sql = dir.path() / "two.sql";
  overwrite(sql, "SELECT COUNT(*) FROM atable; SELECT 1;");
  expect_failure(tally(cache, {"prepare", "two", sql.string(), "--atable", "10"}),
                 "exactly one SELECT");
  overwrite(sql, "SELECT nope FROM atable");
  expect_failure(tally(cache, {"prepare", "two", sql.string(), "--atable", "10"}),
                 "does not exist");
  CHECK(!fs::exists(statement_file(cache, "two")));
}

TEST_CASE("prepare: the kernels land in the disk cache where a later compile finds them") {
  if (!cuda::nvrtc_available()) return;
  PreparedB b;
  REQUIRE(b.prepared.exit_code == 0);
  CHECK(contains(b.prepared.out, "kernels compiled for sm_90 into the disk kernel cache"));
  CHECK(list_kernel_cache_files(b.cache).size() == 1);
  // The same statement over the same data, compiled by another process: a disk hit.
  Run compile =
      tally(b.cache, {"compile", "--atable", "3000", "--seed", "5", query_path("query_b")});
  REQUIRE(compile.exit_code == 0);
  CHECK(contains(compile.out, "(disk cache, loaded in"));
}

TEST_CASE("statement store: encode/decode round trip and strict parsing") {
  StoredStatement s{"q1",
                    "SELECT ?\n-- two lines\n",
                    GeneratedData{0.01, 5, 0, 1.5, 42},
                    {"INTEGER", "DECIMAL(12,2)"}};
  std::string bytes = encode_statement(s);
  CHECK(decode_statement(bytes) == s);
  CHECK_THROWS_WITH_AS(decode_statement(bytes + "x"), doctest::Contains("checksum mismatch"),
                       Error);
  CHECK_THROWS_WITH_AS(decode_statement(bytes.substr(0, bytes.size() - 1)),
                       doctest::Contains("checksum mismatch"), Error);
  CHECK_THROWS_AS(check_statement_name("a-b"), Error);
  CHECK_NOTHROW(check_statement_name("_a1"));
  CHECK_THROWS_AS(check_statement_name(std::string(65, 'a')), Error);
}

}  // namespace
}  // namespace tally
