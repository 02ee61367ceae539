// Computed strings on the GPU path, without a GPU: how a VARCHAR expression splits into
// leaves (compiler/plan/string_domain.h), the domains and tables the host builds for the device
// (compiler/codegen/lookup_tables.h) on a small hand-made table, and the generated CUDA of the new
// shapes compiling with NVRTC for sm_90 without a warning under every strategy that applies.
#include "compiler/plan/string_domain.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compiler/codegen/lookup_tables.h"
#include "compiler/common/error.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

// s's dictionary is {"", "a", "b"} (sorted, NULL aside), u's {"", "x", "y"}.
Database& small_db() {
  static Database* db = [] {
    auto* d = new Database();
    test::run_script(*d,
                     "CREATE TABLE t (k INTEGER, s VARCHAR(10), u VARCHAR(10));"
                     "INSERT INTO t VALUES (1, 'b', 'x'), (2, 'a', NULL), (3, NULL, 'y'), "
                     "(-1, '', 'x'), (5, 'b', '');");
    return d;
  }();
  return *db;
}

// A query bound against the small table, with what the GPU path derives from it.
struct Prepared {
  std::shared_ptr<const PreparedSelect> statement;
  std::vector<ColumnStats> stats;
  TablePtr table;
  const BoundSelect& query() const { return statement->query; }
};

Prepared prepare(const std::string& sql) {
  Prepared p;
  p.statement = small_db().prepare(sql);
  p.table = small_db().table("t");
  p.stats = scan_stats(p.query(), *p.table);
  return p;
}

StringDomainShape key_shape(const std::string& key) {
  Prepared p = prepare("SELECT " + key + ", COUNT(*) FROM t GROUP BY 1");
  return string_domain_shape(*p.query().group_keys.at(0), p.query(), p.stats);
}

// The program, tables and domains the GPU path builds for `sql` (parameters as strings).
struct Built {
  Prepared prepared;
  GpuProgram program;
  StringHeap heap;
  LookupTables tables;
  std::string text(int domain, size_t id) const {
    return heap.get(tables.domains.at(domain).at(id));
  }
};

std::unique_ptr<Built> build(const std::string& sql, const std::vector<std::string>& params = {}) {
  auto b = std::make_unique<Built>();
  b->prepared = prepare(sql);
  const BoundSelect& q = b->prepared.query();
  GpuCompileOptions options;
  GpuPlan plan = plan_for(q, b->prepared.stats, b->prepared.table->rows(), options);
  b->program = generate_cuda(q, plan, b->prepared.stats);
  std::vector<Value> values;
  for (const auto& p : params) values.push_back(Value::from_int(b->heap.intern(p)));
  auto dictionary = [&](int column) -> const std::vector<std::string>& {
    return b->prepared.table->columns[q.scan[column].table_column]->dictionary();
  };
  b->tables = build_lookup_tables(b->program, q, dictionary, values, b->heap);
  return b;
}

// The index of domain 0's leaf that reads a column (by code), or the one that reads none.
int leaf(const Built& b, bool reads_column) {
  for (size_t l = 0; l < b.program.lookups.size(); ++l) {
    const DictLookup& lookup = b.program.lookups[l];
    if (lookup.string_domain == 0 && (lookup.scan_column >= 0) == reads_column) {
      return static_cast<int>(l);
    }
  }
  FAIL("no such leaf");
  return -1;
}

// A table's entries as text: the id or value, "NULL", or "failed".
std::vector<std::string> entries(const Built& b, int lookup) {
  std::vector<std::string> out;
  const LookupTable& t = b.tables.tables.at(lookup);
  for (size_t i = 0; i < t.values.size(); ++i) {
    if (t.states[i] == kLookupNull) {
      out.push_back("NULL");
    } else if (t.states[i] == kLookupFailed) {
      out.push_back("failed");
    } else {
      out.push_back(std::to_string(t.values[i].i));
    }
  }
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("string domain: the test table's dictionaries are what the expectations assume") {
  TablePtr t = small_db().table("t");
  CHECK(t->columns[1]->dictionary() == Strings{"", "a", "b"});
  CHECK(t->columns[2]->dictionary() == Strings{"", "x", "y"});
}

TEST_CASE("string domain: leaves - bounds and nullability of computed strings") {
  // Three constants picked by conditions on a number: three leaves, never NULL.
  StringDomainShape buckets =
      key_shape("CASE WHEN k < 2 THEN 'small' WHEN k < 4 THEN 'medium' ELSE 'large' END");
  CHECK(buckets.leaves.size() == 3);
  CHECK(buckets.bound == 3);
  CHECK_FALSE(buckets.nullable);
  // Reading one VARCHAR column only: one leaf, its codes plus what the NULL code gives.
  StringDomainShape coalesce = key_shape("COALESCE(s, 'none')");
  CHECK(coalesce.leaves.size() == 1);
  CHECK(coalesce.bound == 4);
  // A column and a constant picked by a number: the column's 3 strings and the constant's.
  StringDomainShape mixed = key_shape("CASE WHEN k > 0 THEN s ELSE 'neg' END");
  CHECK(mixed.leaves.size() == 2);
  CHECK(mixed.bound == 4);
  CHECK(mixed.nullable);  // s holds a NULL
  // A repeated branch is one leaf.
  CHECK(key_shape("CASE WHEN k > 3 THEN 'p' WHEN k > 0 THEN 'q' ELSE 'p' END").leaves.size() == 2);
  // COALESCE is NULL only where every argument may be: a constant last ends that.
  CHECK(key_shape("COALESCE(CASE WHEN k > 0 THEN s END, 'z')").nullable == false);
  // Two columns picked by a condition on a third: both dictionaries.
  CHECK(key_shape("CASE WHEN k > 0 THEN s ELSE u END").bound == 6);
}

TEST_CASE("string domain: strings with no bounded domain are refused - naming the expression") {
  Prepared p = prepare("SELECT CAST(k AS VARCHAR(5)), COUNT(*) FROM t GROUP BY 1");
  CHECK_THROWS_WITH_AS(string_domain_shape(*p.query().group_keys[0], p.query(), p.stats),
                       doctest::Contains("CAST(k AS VARCHAR(5))"), Error);
  GpuCompileOptions options;
  try {
    plan_for(p.query(), p.stats, p.table->rows(), options);
    FAIL("planned a key with no bounded domain");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK(std::string(e.what()).find("is not supported on the GPU") != std::string::npos);
  }
  // Two columns' strings read other than as a comparison's two sides.
  Prepared two = prepare("SELECT COUNT(*) FROM t WHERE s IN (u, 'x')");
  CHECK_THROWS_WITH_AS(string_read(*two.query().filter),
                       doctest::Contains("comparing strings of two columns"), Error);
}

TEST_CASE("string domain: two columns compared - ids of one domain holding both") {
  Prepared p = prepare("SELECT COUNT(*) FROM t WHERE s < u");
  CHECK(string_read(*p.query().filter).kind == StringRead::Kind::TwoStrings);
  // A column against itself, or against a constant, stays a table by code.
  CHECK(string_read(*prepare("SELECT COUNT(*) FROM t WHERE s = s").query().filter).kind ==
        StringRead::Kind::PerString);
  CHECK(string_read(*prepare("SELECT COUNT(*) FROM t WHERE s = 'a'").query().filter).kind ==
        StringRead::Kind::PerString);
  auto b = build("SELECT COUNT(*) FROM t WHERE s < u OR CASE WHEN k > 0 THEN s ELSE 'x' END = u");
  // One domain for both comparisons: the strings of s, u and 'x' (the second's leaves are
  // s, 'x' and u, all already in the first's).
  REQUIRE(b->program.string_domains.size() == 2);
  for (int d = 0; d < 2; ++d) {
    Strings texts;
    for (size_t id = 0; id < b->tables.domains[d].size(); ++id) texts.push_back(b->text(d, id));
    CHECK(texts == Strings{"", "a", "b", "x", "y"});  // byte order, "" once
  }
  // s by code ("", "a", "b", NULL) and u by code ("", "x", "y", NULL) as ids of domain 0.
  std::vector<Strings> by_code;
  for (size_t l = 0; l < b->program.lookups.size(); ++l) {
    if (b->program.lookups[l].string_domain == 0)
      by_code.push_back(entries(*b, static_cast<int>(l)));
  }
  CHECK(by_code == std::vector<Strings>{{"0", "1", "2", "NULL"}, {"0", "3", "4", "NULL"}});
}

TEST_CASE("string domain: ids follow string order - a column's codes and a constant map into one") {
  auto b = build("SELECT CASE WHEN k > 0 THEN s ELSE 'neg' END, COUNT(*) FROM t GROUP BY 1");
  REQUIRE(b->program.string_domains.size() == 1);
  CHECK(b->program.key_domains == std::vector<int>{0});
  CHECK(b->program.string_domains[0].bound == 4);
  REQUIRE(b->tables.domains[0].size() == 4);
  CHECK(b->text(0, 0) == "");
  CHECK(b->text(0, 1) == "a");
  CHECK(b->text(0, 2) == "b");
  CHECK(b->text(0, 3) == "neg");
  // By code: "" -> 0, "a" -> 1, "b" -> 2, and the NULL code stays NULL.
  CHECK(entries(*b, leaf(*b, true)) == Strings{"0", "1", "2", "NULL"});
  CHECK(entries(*b, leaf(*b, false)) == Strings{"3"});
}

TEST_CASE("string domain: equal strings from different leaves get one id") {
  auto b = build("SELECT CASE WHEN k > 0 THEN s ELSE 'a' END, COUNT(*) FROM t GROUP BY 1");
  REQUIRE(b->tables.domains[0].size() == 3);  // "", "a", "b": the constant is s's "a"
  CHECK(entries(*b, leaf(*b, false)) == Strings{"1"});
  // A parameter gives its string when the NULL code reaches it: "b", an id s has already.
  auto p = build("SELECT COALESCE(s, ?), COUNT(*) FROM t GROUP BY 1", {"b"});
  REQUIRE(p->tables.domains[0].size() == 3);
  CHECK(entries(*p, 0) == Strings{"0", "1", "2", "2"});
  auto q = build("SELECT COALESCE(s, ?), COUNT(*) FROM t GROUP BY 1", {"B"});
  REQUIRE(q->tables.domains[0].size() == 4);
  CHECK(q->text(0, 1) == "B");  // byte order: "" < "B" < "a" < "b"
  CHECK(entries(*q, 0) == Strings{"0", "2", "3", "1"});
}

TEST_CASE("string domain: a predicate over a computed string is a table by domain id") {
  auto b = build(
      "SELECT COUNT(*) FROM t WHERE CASE WHEN k > 0 THEN s ELSE 'a' END LIKE 'a%' "
      "OR CASE WHEN k > 0 THEN s ELSE 'a' END IS NULL");
  REQUIRE(b->program.string_domains.size() == 1);
  int like = -1;
  for (size_t l = 0; l < b->program.lookups.size(); ++l) {
    if (b->program.lookups[l].domain_input == 0) like = static_cast<int>(l);
  }
  REQUIRE(like >= 0);
  // Ids "", "a", "b"; the bound's slot past them is never read; the last entry is NULL's.
  CHECK(entries(*b, like) == Strings{"0", "1", "0", "NULL", "NULL"});
}

TEST_CASE("string domain: a leaf that fails for some code is flagged there - not everywhere") {
  auto b = build(
      "SELECT CASE WHEN CAST(s AS INTEGER) > 0 THEN 'pos' ELSE 'other' END, COUNT(*) FROM t "
      "GROUP BY 1");
  // "", "a" and "b" are no integers: every code fails; the NULL code takes ELSE.
  CHECK(entries(*b, leaf(*b, true)) == Strings{"failed", "failed", "failed", "0"});
  REQUIRE(b->tables.domains[0].size() == 1);
  CHECK(b->text(0, 0) == "other");
  CHECK_FALSE(b->tables.error.empty());
}

namespace {

Database& compile_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(3000, 0.2, 11));
    test::run_script(*d,
                     "CREATE TABLE t (k INTEGER, s VARCHAR(10), u VARCHAR(10));"
                     "INSERT INTO t VALUES (1, 'b', 'x'), (2, 'a', NULL), (3, NULL, 'y'), "
                     "(-1, '', 'x'), (5, 'b', '');");
    test::run_script(*d, "CREATE TABLE e (k INTEGER, s VARCHAR(10))");
    return d;
  }();
  return *db;
}

// Compiles `sql` under `strategy`; true when it compiled (without an NVRTC warning), false
// when the strategy does not apply (Unsupported).
bool compiles_cleanly(const std::string& sql, GpuStrategy strategy, const char* table) {
  auto statement = compile_db().prepare(sql);
  const BoundSelect& q = statement->query;
  TablePtr t = compile_db().table(table);
  std::vector<ColumnStats> stats = scan_stats(q, *t);
  GpuCompileOptions options;
  options.strategy = strategy;
  GpuPlan plan;
  try {
    plan = plan_for(q, stats, t->rows(), options);
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.kind() == ErrorKind::Unsupported);
    return false;
  }
  GpuCompilation c = compile_plan(q, stats, plan, "sm_90");
  CHECK_MESSAGE(c.binary->log.empty(), c.binary->log);
  return true;
}

}  // namespace

TEST_CASE("string domain: every computed-string shape compiles for sm_90 without warnings") {
  if (!cuda::nvrtc_available()) {
    MESSAGE("libnvrtc not found: skipped");
    return;
  }
  struct Case {
    const char* table;
    const char* sql;
  };
  const Case cases[] = {
      {"t", "SELECT k, COUNT(*) FROM t GROUP BY k"},
      {"nulls",
       "SELECT COALESCE(c_varchar, 'none'), COUNT(*), SUM(c_integer) FROM nulls "
       "GROUP BY 1"},
      {"nulls",
       "SELECT CASE WHEN c_integer > 3000 THEN c_varchar ELSE 'small' END, c_boolean, "
       "COUNT(*), MIN(c_varchar) FROM nulls GROUP BY 1, 2"},
      {"nulls",
       "SELECT c_boolean, COUNT(DISTINCT CASE WHEN c_smallint < 0 THEN c_varchar END), "
       "MAX(COALESCE(c_varchar, 'zz')), MIN(CASE WHEN c_date IS NULL THEN 'x' ELSE "
       "c_varchar END) FROM nulls GROUP BY c_boolean"},
      {"nulls",
       "SELECT COUNT(*), SUM(c_decimal) FROM nulls WHERE CASE WHEN c_integer > 0 THEN "
       "c_varchar ELSE 'neg' END LIKE '%ta' OR COALESCE(c_varchar, 'q') IN ('q', 'eta')"},
      {"nulls",
       "SELECT SUM(CASE WHEN (CASE WHEN c_integer > 0 THEN c_varchar ELSE 'z' END) < "
       "'eta' THEN 1 ELSE 0 END), COUNT(*) FROM nulls"},
      {"t", "SELECT CASE WHEN k > 0 THEN s ELSE u END, COUNT(*) FROM t GROUP BY 1"},
      {"t", "SELECT COALESCE(s, u, 'none'), COUNT(DISTINCT COALESCE(u, s)) FROM t GROUP BY 1"},
      {"e", "SELECT CASE WHEN k > 0 THEN s ELSE 'neg' END, COUNT(*) FROM e GROUP BY 1"},
      {"t",
       "SELECT s <= u, COUNT(*), SUM(CASE WHEN s <> u THEN k END) FROM t WHERE s < u OR "
       "COALESCE(s, 'a') = u GROUP BY 1"},
  };
  for (const Case& c : cases) {
    INFO(c.sql);
    int compiled = 0;
    for (GpuStrategy s :
         {GpuStrategy::Auto, GpuStrategy::ThreadPrivate, GpuStrategy::Direct, GpuStrategy::Hash}) {
      INFO(strategy_name(s));
      compiled += compiles_cleanly(c.sql, s, c.table) ? 1 : 0;
    }
    CHECK(compiled >= 2);  // auto and at least one forced strategy
  }
  // Strings with no bounded domain still fail, naming the expression.
  CHECK_FALSE(
      compiles_cleanly("SELECT CAST(c_integer AS VARCHAR(9)), COUNT(*) FROM nulls "
                       "GROUP BY 1",
                       GpuStrategy::Auto, "nulls"));
}

}  // namespace tally
