// The sqllogictest runner: parsing .test text into records, comparing results, and
// running files against a fresh Database (pass, fail, skip, halt).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "compiler/common/error.h"
#include "tools/slt/compare.h"
#include "tools/slt/parse.h"
#include "tools/slt/runner.h"

using namespace tally;
using namespace tally::slt;

namespace {

FileReport run_text(const std::string& text, const std::string& engine = "cpu") {
  RunOptions options;
  options.engine = engine;
  return run_test_file(parse_test_file(text, "mem.test"), options);
}

// A report's failures joined, for CHECKs that look for a phrase.
std::string failure_text(const FileReport& report) {
  std::string all;
  for (const auto& f : report.failures) all += f + "\n";
  return all;
}

const char* kTable =
    "statement ok\n"
    "CREATE TABLE t (k VARCHAR(3), v INTEGER)\n"
    "\n"
    "statement ok\n"
    "INSERT INTO t VALUES ('b', 2), ('a', 1), ('c', NULL)\n"
    "\n";

}  // namespace

TEST_CASE("slt parse: the record kinds - their SQL - types - sort modes and lines") {
  TestFile file = parse_test_file(
      "# a comment\n"
      "hash-threshold 8\n"
      "\n"
      "statement ok\n"
      "CREATE TABLE t (a INT)\n"
      "\n"
      "statement error\n"
      "SELECT nope\n"
      "FROM t\n"
      "----\n"
      "column \"nope\" does not exist\n"
      "\n"
      "skipif gpu\n"
      "onlyif cpu\n"
      "query IT rowsort\n"
      "SELECT 1, 'x'\n"
      "----\n"
      "1\tx\n"
      "\n"
      "mode output_result\n"
      "query R valuesort mylabel\n"
      "SELECT 2.5\n"
      "\n"
      "statement error\n"
      "SELECT 1 / 0\n"
      "\n"
      "halt\n",
      "p.test");
  REQUIRE(file.records.size() == 6);
  const Record& ok = file.records[0];
  CHECK(ok.kind == RecordKind::StatementOk);
  CHECK(ok.line == 4);
  CHECK(ok.sql == "CREATE TABLE t (a INT)");

  const Record& err = file.records[1];
  CHECK(err.kind == RecordKind::StatementError);
  CHECK(err.sql == "SELECT nope\nFROM t");
  REQUIRE(err.expected_error.has_value());
  CHECK(*err.expected_error == "column \"nope\" does not exist");

  const Record& q = file.records[2];
  CHECK(q.kind == RecordKind::Query);
  CHECK(q.line == 15);
  CHECK(q.types == "IT");
  CHECK(q.sort == SortMode::RowSort);
  REQUIRE(q.conditions.size() == 2);
  CHECK_FALSE(q.conditions[0].only);
  CHECK(q.conditions[0].engine == "gpu");
  CHECK(q.conditions[1].only);
  CHECK(q.expected == std::vector<std::string>{"1\tx"});

  // No ---- at all: a query expected to return no rows.
  const Record& no_rows = file.records[3];
  CHECK(no_rows.sort == SortMode::ValueSort);
  CHECK(no_rows.expected.empty());

  CHECK_FALSE(file.records[4].expected_error.has_value());
  CHECK(file.records[5].kind == RecordKind::Halt);
}

TEST_CASE("slt parse: malformed records name the file and line") {
  auto message_of = [](const std::string& text) {
    try {
      parse_test_file(text, "bad.test");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message_of("\nselect 1\n").starts_with("bad.test:2: unknown record 'select'"));
  CHECK(message_of("query IX\nSELECT 1\n").starts_with("bad.test:1: column types 'IX'"));
  CHECK(message_of("query I shuffled\nSELECT 1\n").starts_with("bad.test:1: unknown sort mode"));
  CHECK(message_of("statement maybe\nSELECT 1\n").starts_with("bad.test:1:"));
  CHECK(message_of("statement ok\n\n").starts_with("bad.test:1: the record has no SQL"));
  CHECK(message_of("statement ok\nSELECT 1\n----\nx\n").starts_with("bad.test:1:"));
  CHECK(message_of("query I\nSELECT 1\n\nskipif cpu\n").find("skipif/onlyif") != std::string::npos);
}

TEST_CASE("slt compare: R columns compare numerically - I and T as text") {
  CHECK(values_equal("2.5", "2.50", 'R'));
  CHECK(values_equal("1", "1.0000000001", 'R'));  // within the relative 1e-9
  CHECK(values_equal("0", "1e-13", 'R'));         // within the absolute 1e-12
  CHECK_FALSE(values_equal("1", "1.001", 'R'));
  CHECK_FALSE(values_equal("2.5", "2.50", 'T'));
  CHECK_FALSE(values_equal("2", "2.0", 'I'));
  CHECK(values_equal("NULL", "NULL", 'R'));
  CHECK_FALSE(values_equal("NULL", "0", 'R'));
  CHECK_FALSE(values_equal("abc", "abd", 'R'));
}

TEST_CASE("slt compare: expected lines as tab-separated rows or one value per line") {
  Rows tabbed = expected_values({"1\ta b\t(empty)", "2\tc\tNULL"}, 3, 2);
  REQUIRE(tabbed.size() == 2);
  CHECK(tabbed[0] == std::vector<std::string>{"1", "a b", "(empty)"});
  CHECK(tabbed[1] == std::vector<std::string>{"2", "c", "NULL"});

  // Six lines, three columns, two result rows, no tab: the classic layout.
  Rows classic = expected_values({"1", "a", "x", "2", "b", "y"}, 3, 2);
  REQUIRE(classic.size() == 2);
  CHECK(classic[1] == std::vector<std::string>{"2", "b", "y"});

  // One column: each line is a row whatever the counts.
  CHECK(expected_values({"1", "2"}, 1, 2).size() == 2);
}

TEST_CASE("slt run: passing records of every kind") {
  FileReport report = run_text(std::string(kTable) +
                               "query TI rowsort\n"
                               "SELECT k, v FROM t\n"
                               "----\n"
                               "a\t1\n"
                               "b\t2\n"
                               "c\tNULL\n"
                               "\n"
                               "query T\n"
                               "SELECT AVG(v) FROM t\n"
                               "----\n"
                               "1.500000\n"
                               "\n"
                               "query R\n"
                               "SELECT AVG(v) FROM t\n"
                               "----\n"
                               "1.5\n"
                               "\n"
                               "statement error\n"
                               "SELECT v / 0 FROM t\n"
                               "----\n"
                               "division by\n"
                               "\n"
                               "statement error\n"
                               "SELECT nope FROM t\n");
  CHECK(failure_text(report) == "");
  CHECK(report.passed == 7);
  CHECK(report.failed == 0);
  CHECK(report.skipped == 0);
}

TEST_CASE("slt run: a failing record is reported and the file goes on") {
  FileReport report = run_text(std::string(kTable) +
                               "query I\n"
                               "SELECT SUM(v) FROM t\n"
                               "----\n"
                               "4\n"
                               "\n"
                               "query I\n"
                               "SELECT COUNT(*) FROM t\n"
                               "----\n"
                               "3\n");
  CHECK(report.passed == 3);
  CHECK(report.failed == 1);
  REQUIRE(report.failures.size() == 1);
  const std::string& f = report.failures[0];
  CHECK(f.starts_with("mem.test:7: row 1, column 1: expected '4', got '3'"));
  CHECK(f.find("SELECT SUM(v) FROM t") != std::string::npos);
}

TEST_CASE("slt run: the declared column count must match the result") {
  FileReport report = run_text(
      "query II\n"
      "SELECT 1\n"
      "----\n"
      "1\t1\n");
  CHECK(report.failed == 1);
  CHECK(failure_text(report).find("declares 2 columns ('II'), the result has 1") !=
        std::string::npos);
}

TEST_CASE("slt run: rowsort and valuesort ignore order - nosort does not") {
  const std::string reversed =
      "SELECT k FROM t\n"
      "----\n"
      "c\n"
      "b\n"
      "a\n";
  // The CPU engine returns rows in insertion order: b, a, c.
  CHECK(run_text(std::string(kTable) + "query T rowsort\n" + reversed).failed == 0);
  CHECK(run_text(std::string(kTable) + "query T valuesort\n" + reversed).failed == 0);
  CHECK(run_text(std::string(kTable) + "query T nosort\n" + reversed).failed == 1);
  CHECK(run_text(std::string(kTable) + "query T\n" + reversed).failed == 1);

  // valuesort sorts single values across columns: (2, b), (1, a) holds 1 2 a b.
  FileReport values = run_text(std::string(kTable) +
                               "query IT valuesort\n"
                               "SELECT v, k FROM t WHERE v IS NOT NULL\n"
                               "----\n"
                               "a\t1\n"
                               "b\t2\n");
  CHECK(values.failed == 0);
}

TEST_CASE("slt run: statement error matches the start of the message") {
  const std::string sql = "statement error\nSELECT nope FROM t\n----\n";
  CHECK(run_text(std::string(kTable) + sql + "column \"nope\"\n").failed == 0);
  CHECK(run_text(std::string(kTable) + sql + "column \"nope\" does not exist\n").failed == 0);
  FileReport wrong = run_text(std::string(kTable) + sql + "table \"nope\"\n");
  CHECK(wrong.failed == 1);
  CHECK(failure_text(wrong).find("expected an error starting with") != std::string::npos);
  // The prefix must be at the start, not anywhere.
  CHECK(run_text(std::string(kTable) + sql + "does not exist\n").failed == 1);

  FileReport succeeded = run_text("statement error\nSELECT 1\n");
  CHECK(succeeded.failed == 1);
  CHECK(failure_text(succeeded).find("statement succeeded") != std::string::npos);

  FileReport failed_ok = run_text("statement ok\nSELECT 1 / 0\n");
  CHECK(failed_ok.failed == 1);
  CHECK(failure_text(failed_ok).find("division by zero") != std::string::npos);
}

TEST_CASE("slt run: skipif - onlyif and halt") {
  const std::string text =
      "skipif cpu\n"
      "query I\n"
      "SELECT 1\n"
      "----\n"
      "2\n"
      "\n"
      "onlyif gpu\n"
      "statement ok\n"
      "SELECT 1\n"
      "\n"
      "onlyif cpu\n"
      "query I\n"
      "SELECT 1\n"
      "----\n"
      "1\n"
      "\n"
      "halt\n"
      "\n"
      "query I\n"
      "SELECT 1\n"
      "----\n"
      "99\n";
  FileReport cpu = run_text(text, "cpu");
  CHECK(cpu.passed == 1);
  CHECK(cpu.skipped == 2);
  CHECK(cpu.failed == 0);  // the wrong record after halt never runs

  // On gpu the skipif record runs (and fails: 1 is not 2), the onlyif cpu one is skipped.
  FileReport gpu = run_text(text, "gpu");
  CHECK(gpu.skipped == 1);
  CHECK(gpu.failed + gpu.passed == 2);
}

TEST_CASE("slt run: each file starts with an empty database") {
  const std::string create = "statement ok\nCREATE TABLE once (a INT)\n";
  CHECK(run_text(create).failed == 0);
  CHECK(run_text(create).failed == 0);
}

TEST_CASE("slt files: directories are searched recursively for *.test - sorted") {
  namespace fs = std::filesystem;
  fs::path root = fs::temp_directory_path() / "tally_slt_collect_test";
  fs::remove_all(root);
  fs::create_directories(root / "sub" / "deeper");
  for (const char* name : {"b.test", "a.test", "notes.txt", "sub/c.test", "sub/deeper/d.test"}) {
    std::ofstream(root / name) << "statement ok\nSELECT 1\n";
  }
  std::vector<std::string> files = collect_test_files({root.string()});
  std::vector<std::string> expected;
  for (const char* name : {"a.test", "b.test", "sub/c.test", "sub/deeper/d.test"}) {
    expected.push_back((root / name).string());
  }
  CHECK(files == expected);

  // A file named directly is taken whatever its extension.
  CHECK(collect_test_files({(root / "notes.txt").string()}).size() == 1);
  CHECK_THROWS_AS(collect_test_files({(root / "missing").string()}), Error);

  // A file that does not parse is one failure.
  std::ofstream(root / "broken.test") << "bogus line\n";
  FileReport broken = run_test_path((root / "broken.test").string(), RunOptions{});
  CHECK(broken.failed == 1);
  CHECK(broken.failures.at(0).find("broken.test:1: unknown record 'bogus'") != std::string::npos);
  fs::remove_all(root);
}

TEST_CASE("slt summary line") {
  CHECK(summary_line(3, 0, 0) == "3 passed, 0 failed");
  CHECK(summary_line(3, 1, 2) == "3 passed, 1 failed, 2 skipped");
}
