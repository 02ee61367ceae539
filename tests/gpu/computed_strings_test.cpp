// Computed strings on the GPU (compiler/plan/string_domain.h): GROUP BY, DISTINCT, MIN/MAX and
// predicates over CASE/COALESCE strings, compared with the CPU engine under every strategy
// that applies — on generated tables and on small hand-made ones with NULLs and empty
// strings; ORDER BY on such a key in exact order; a leaf whose host evaluation fails only
// where a row reaches it; a prepared statement whose parameter changes the domain; two
// string columns compared with each other.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& strings_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 13));
    d->put_table(generate_nulls_table(60000, 0.2, 13));
    test::run_script(*d,
                     "CREATE TABLE h (k INTEGER, s VARCHAR(8), u VARCHAR(8));"
                     "INSERT INTO h VALUES (1, '1', 'x'), (2, '', NULL), (3, NULL, 'y'), "
                     "(-1, '', 'x'), (5, '22', ''), (-4, NULL, NULL), (0, 'ab', ''), "
                     "(7, '22', 'x'), (-2, '1', NULL);"
                     "CREATE TABLE e (k INTEGER, s VARCHAR(8));"
                     "CREATE TABLE pairs (k INTEGER, s VARCHAR(8), u VARCHAR(8));"
                     "INSERT INTO pairs VALUES (1, 'a', 'a'), (2, 'b', 'a'), (3, 'a', 'b'), "
                     "(4, NULL, 'a'), (5, '', ''), (6, 'ab', 'a'), (7, 'a', NULL), "
                     "(8, 'B', 'a'), (9, '', 'b'), (10, 'b', 'b');");
    return d;
  }();
  return *db;
}

ExecOptions options_for(DeviceChoice device, const std::string& strategy,
                        const std::vector<std::string>& params) {
  ExecOptions options;
  options.device = device;
  options.strategy = strategy;
  options.parameters = params;
  return options;
}

Result run(const std::string& sql, DeviceChoice device, const std::string& strategy = "auto",
           const std::vector<std::string>& params = {}) {
  std::optional<Result> last;
  strings_db().execute_script(sql, options_for(device, strategy, params),
                              [&](const StatementOutcome& o) {
                                if (o.result) last = o.result;
                              });
  REQUIRE(last.has_value());
  return *last;
}

// Runs `sql` on the CPU and under every strategy on the GPU; auto must run, the forced
// ones may report Unsupported. Rows compare in any order unless `ordered`.
void check_everywhere(const std::string& sql, const std::vector<std::string>& params = {},
                      bool ordered = false) {
  INFO(sql);
  Result cpu = run(sql, DeviceChoice::Cpu, "auto", params);
  for (std::string strategy : {"auto", "thread", "block", "direct", "hash"}) {
    INFO("strategy " << strategy);
    try {
      Result gpu = run(sql, DeviceChoice::Gpu, strategy, params);
      CHECK(gpu.device.rfind("gpu", 0) == 0);
      CHECK(test::result_difference(cpu, gpu, {}) == "");
      if (ordered) {
        REQUIRE(gpu.rows.size() == cpu.rows.size());
        for (size_t r = 0; r < cpu.rows.size(); ++r) {
          for (size_t c = 0; c < cpu.types.size(); ++c) {
            CHECK(gpu.cell_text(r, c) == cpu.cell_text(r, c));
          }
        }
      }
    } catch (const Error& e) {
      INFO(e.what());
      CHECK(e.kind() == ErrorKind::Unsupported);
      CHECK(strategy != "auto");
    }
  }
}

}  // namespace

TEST_CASE("gpu computed strings: GROUP BY CASE/COALESCE strings on generated tables") {
  check_everywhere(test::query_file("quantity_buckets"));
  check_everywhere(
      "SELECT COALESCE(c_varchar, 'none') AS v, COUNT(*), SUM(c_integer) FROM nulls GROUP BY 1");
  check_everywhere(
      "SELECT CASE WHEN c_integer > 4000 THEN c_varchar ELSE 'small' END AS v, c_boolean, "
      "COUNT(*), MIN(c_varchar), MAX(c_varchar) FROM nulls GROUP BY 1, 2");
  check_everywhere(
      "SELECT CASE WHEN l_discount > 0.05 THEN l_shipmode ELSE l_returnflag END AS m, "
      "COUNT(*), SUM(l_quantity) FROM lineitem GROUP BY 1");
  check_everywhere(
      "SELECT COALESCE(CASE WHEN l_quantity < ? THEN l_shipmode END, ?) AS m, COUNT(*) "
      "FROM lineitem GROUP BY 1",
      {"10", "none"});
}

TEST_CASE("gpu computed strings: DISTINCT and MIN/MAX of computed strings") {
  check_everywhere(
      "SELECT c_boolean, COUNT(DISTINCT CASE WHEN c_smallint < 0 THEN c_varchar END), "
      "MAX(COALESCE(c_varchar, 'zz')), MIN(CASE WHEN c_date IS NULL THEN 'x' ELSE c_varchar "
      "END) FROM nulls GROUP BY c_boolean");
  check_everywhere(
      "SELECT l_linestatus, COUNT(DISTINCT CASE WHEN l_quantity < 25 THEN l_shipmode ELSE "
      "'bulk' END), MIN(CASE WHEN l_quantity < 25 THEN l_shipmode ELSE 'bulk' END) "
      "FROM lineitem GROUP BY l_linestatus");
}

TEST_CASE("gpu computed strings: predicates on computed strings") {
  check_everywhere(
      "SELECT COUNT(*), SUM(c_decimal) FROM nulls WHERE CASE WHEN c_integer > 0 THEN c_varchar "
      "ELSE 'neg' END LIKE '%ta' OR COALESCE(c_varchar, 'q') IN ('q', 'eta')");
  check_everywhere(
      "SELECT c_boolean, SUM(CASE WHEN (CASE WHEN c_integer > 0 THEN c_varchar ELSE 'z' END) < "
      "'eta' THEN 1 ELSE 0 END), COUNT(*) FROM nulls GROUP BY c_boolean");
  check_everywhere(
      "SELECT l_returnflag, COUNT(*) FROM lineitem WHERE CASE WHEN l_quantity > 30 THEN "
      "l_shipmode ELSE 'small' END = ? GROUP BY l_returnflag",
      {"small"});
}

TEST_CASE("gpu computed strings: NULLs and empty strings on a hand-made table") {
  check_everywhere(
      "SELECT CASE WHEN k > 0 THEN s ELSE u END AS v, COUNT(*), COUNT(s) FROM h "
      "GROUP BY 1");
  check_everywhere(
      "SELECT COALESCE(s, u, 'none'), COUNT(DISTINCT COALESCE(u, s)), "
      "MIN(COALESCE(u, s)), MAX(CASE WHEN k > 0 THEN s END) FROM h GROUP BY 1");
  check_everywhere("SELECT COUNT(*), SUM(k) FROM h WHERE CASE WHEN k > 0 THEN s ELSE '' END = ''");
  check_everywhere("SELECT COUNT(*) FROM h WHERE CASE WHEN k > 0 THEN s END IS NULL");
  check_everywhere("SELECT CASE WHEN k > 0 THEN s ELSE 'neg' END, COUNT(*) FROM e GROUP BY 1");
  check_everywhere("SELECT COUNT(DISTINCT CASE WHEN k > 0 THEN s ELSE 'neg' END) FROM e");
}

TEST_CASE("gpu computed strings: two string columns compared - in filters, keys and aggregates") {
  check_everywhere("SELECT COUNT(*), SUM(k) FROM pairs WHERE s = u");
  check_everywhere("SELECT s < u AS lt, s >= u AS ge, COUNT(*), SUM(k) FROM pairs GROUP BY 1, 2");
  check_everywhere(
      "SELECT SUM(CASE WHEN s <> u THEN k END), SUM(CASE WHEN COALESCE(s, 'b') > u THEN k "
      "ELSE 0 END), COUNT(*) FROM pairs WHERE s <= u OR u IS NULL");
  check_everywhere(
      "SELECT l_returnflag, COUNT(*), SUM(l_quantity) FROM lineitem WHERE l_returnflag = "
      "l_linestatus GROUP BY l_returnflag");
  check_everywhere(
      "SELECT l_shipmode < l_shipinstruct AS before, COUNT(*) FROM lineitem GROUP BY 1");
}

TEST_CASE("gpu computed strings: ORDER BY a computed string key sorts as on the CPU") {
  check_everywhere(
      "SELECT COALESCE(c_varchar, 'none') AS v, COUNT(*) FROM nulls GROUP BY 1 "
      "ORDER BY v DESC LIMIT 4",
      {}, true);
  check_everywhere(
      "SELECT CASE WHEN k > 0 THEN s ELSE u END AS v, COUNT(*) AS n FROM h GROUP BY 1 "
      "ORDER BY v NULLS FIRST",
      {}, true);
}

TEST_CASE("gpu computed strings: a failing leaf raises only where a row reaches it") {
  const char* fails =
      "SELECT CASE WHEN CAST(s AS INTEGER) > 5 THEN 'big' ELSE 'small' END, COUNT(*) FROM h "
      "GROUP BY 1";
  CHECK_THROWS_AS(run(fails, DeviceChoice::Cpu), Error);
  CHECK_THROWS_AS(run(fails, DeviceChoice::Gpu), Error);
  check_everywhere(
      "SELECT CASE WHEN CAST(s AS INTEGER) > 5 THEN 'big' ELSE 'small' END, COUNT(*) FROM h "
      "WHERE s IN ('1', '22') GROUP BY 1");
}

TEST_CASE("gpu computed strings: a prepared statement rebuilds the domain for each parameter") {
  auto statement = strings_db().prepare("SELECT COALESCE(s, ?) AS v, COUNT(*) FROM h GROUP BY 1");
  for (std::string value : {"x", "", "22", "zz"}) {
    INFO("parameter '" << value << "'");
    Result cpu = strings_db()
                     .execute_prepared(*statement, options_for(DeviceChoice::Cpu, "auto", {value}))
                     .result.value();
    Result gpu = strings_db()
                     .execute_prepared(*statement, options_for(DeviceChoice::Gpu, "auto", {value}))
                     .result.value();
    CHECK(test::result_difference(cpu, gpu, {}) == "");
  }
  CHECK(statement->plans->hits() >= 3);  // one program served every value
}

}  // namespace tally
