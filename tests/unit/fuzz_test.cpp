// The fuzzer's own pieces (tools/fuzz): the generator and the case list are pure functions
// of the seed (a regression names its seed and index, and a restarted child regenerates
// the same list), the mutator's tokens give the text back, mutations change the text,
// regression files read back as written, and the generated SQL mostly runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "tally/engine.h"
#include "tools/fuzz/cases.h"
#include "tools/fuzz/compare.h"
#include "tools/fuzz/generator.h"
#include "tools/fuzz/mutator.h"
#include "tools/fuzz/regression.h"
#include "tools/fuzz/schema.h"

using namespace tally;
using namespace tally::fuzz;

TEST_CASE("fuzz generator: the same seed gives the same statements") {
  for (uint64_t i = 0; i < 200; ++i) CHECK(generate_statement(7, i) == generate_statement(7, i));
  std::set<std::string> distinct;
  for (uint64_t i = 0; i < 200; ++i) distinct.insert(generate_statement(7, i));
  CHECK(distinct.size() > 190);
  int differ = 0;
  for (uint64_t i = 0; i < 50; ++i) differ += generate_statement(7, i) != generate_statement(8, i);
  CHECK(differ > 45);
}

TEST_CASE("fuzz cases: the list depends on the seed and the corpus only") {
  std::vector<CorpusEntry> corpus = {{"SELECT k, SUM(v) FROM t GROUP BY k", Context{}},
                                     {"SELECT 1 + 2", Context{"x.test", 4}}};
  auto a = make_cases(3, 300, corpus), b = make_cases(3, 300, corpus);
  REQUIRE(a.size() == 300);
  int mutated = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].sql == b[i].sql);
    CHECK(a[i].context == b[i].context);
    mutated += a[i].origin.starts_with("mutated");
  }
  CHECK(mutated > 100);
  CHECK(mutated < 250);
}

TEST_CASE("fuzz mutator: tokens join back to the text") {
  const std::string sql =
      "SELECT k, SUM(v)::DOUBLE AS \"s x\" FROM t -- note\nWHERE v <> 'a''b' AND x >= 1.5e3";
  auto tokens = tokenize(sql);
  std::string back;
  for (const auto& t : tokens) back += t;
  CHECK(back == sql);
  CHECK(std::find(tokens.begin(), tokens.end(), "'a''b'") != tokens.end());
  CHECK(std::find(tokens.begin(), tokens.end(), "::") != tokens.end());
  CHECK(std::find(tokens.begin(), tokens.end(), "<>") != tokens.end());
  CHECK(std::find(tokens.begin(), tokens.end(), "\"s x\"") != tokens.end());
}

TEST_CASE("fuzz mutator: mutations change the text and are deterministic") {
  const std::string sql = "SELECT k, COUNT(*) FROM t WHERE v > 3 GROUP BY k ORDER BY 2";
  int changed = 0;
  for (uint64_t s = 0; s < 100; ++s) {
    Rng a(s), b(s);
    std::string x = mutate(a, sql);
    CHECK(x == mutate(b, sql));
    changed += x != sql;
  }
  CHECK(changed > 90);
}

TEST_CASE("fuzz regression files read back as written") {
  auto dir = std::filesystem::temp_directory_path() / "tally_fuzz_regression_test";
  std::filesystem::remove_all(dir);
  FuzzCase c{"SELECT 1\n-- tally-fuzz: inside\n", Context{"tests/sql/a.test", 12}, "generated"};
  std::string path = write_regression(dir.string(), c, "crash (signal 11)\nmore", 5, 42);
  REQUIRE(!path.empty());
  CHECK(std::filesystem::path(path).filename() == "crash-s5-i42.sql");
  auto back = read_regressions({dir.string()});
  REQUIRE(back.size() == 1);
  CHECK(back[0].sql == c.sql);
  CHECK(back[0].context == c.context);
  std::filesystem::remove_all(dir);
}

TEST_CASE("fuzz comparison: exact columns exactly and doubles within a tolerance") {
  Engine engine(EngineOptions{Device::Cpu, 1});
  auto a = engine.execute("SELECT 1 AS x, 0.1::DOUBLE + 0.2::DOUBLE AS y");
  auto b = engine.execute("SELECT 1 AS x, 0.3::DOUBLE AS y");
  auto c = engine.execute("SELECT 2 AS x, 0.3::DOUBLE AS y");
  CHECK_FALSE(compare_results(a, b, true));
  CHECK(compare_results(a, c, true));
  CHECK_FALSE(compare_results(a, c, false));
  // A number in a string (a cast of a float sum) compares as the float it holds.
  auto s1 = engine.execute("SELECT '0.9999999999999999' AS s");
  auto s2 = engine.execute("SELECT '1' AS s");
  auto s3 = engine.execute("SELECT '1x' AS s");
  CHECK_FALSE(compare_results(s1, s2, true));
  CHECK(compare_results(s2, s3, true));
  CHECK(has_limit_or_offset("SELECT 1 limit 2"));
  CHECK_FALSE(has_limit_or_offset("SELECT 'LIMIT' AS limited"));
}

TEST_CASE("fuzz schema and generated statements mostly run on the CPU engine") {
  Engine engine(EngineOptions{Device::Cpu, 1});
  for (const auto& sql : fuzz_schema_statements()) engine.execute(sql);
  int ok = 0;
  for (uint64_t i = 0; i < 300; ++i) {
    try {
      engine.execute(generate_statement(1, i));
      ++ok;
    } catch (const Error& e) {
      CHECK(e.kind() != ErrorKind::Internal);
    }
  }
  CHECK(ok > 100);  // most statements reach the engine and answer
}
