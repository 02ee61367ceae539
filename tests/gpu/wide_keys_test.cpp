// GROUP BY through the hash table with 128-bit keys (compiler/plan/gpu_plan.h HashKeyLayout),
// compared with the CPU engine: several keys with one computed key (NULLs in both kinds of
// keys), a DECIMAL(30,2) key with NULLs and negative values, ORDER BY on such results, a
// first capacity too small that must grow and rerun, and many groups (TPC-H SF 0.05); two or
// more such keys through key words (HashKeyLayout::KeyWords).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compiler/bind/binder.h"
#include "compiler/common/error.h"
#include "compiler/parse/parser.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& wide_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 17));
    d->put_table(generate_nulls_table(60000, 0.2, 17));
    // Wide DECIMALs past 2^64 both ways, equal values written differently, NULLs, and a
    // BIGINT whose range passes 2^62 (a raw key even as a column).
    test::run_script(
        *d,
        "CREATE TABLE w (d DECIMAL(30,2), k INTEGER, b BIGINT, v DECIMAL(10,2));"
        "INSERT INTO w VALUES (12345678901234567890123.45, 1, -9000000000000000000, 1.50), "
        "(-12345678901234567890123.45, 2, 9000000000000000000, 2.25), "
        "(-0.50, NULL, 0, -1.00), (-0.5, 1, 0, 3.00), (0.00, 2, NULL, 4.00), "
        "(NULL, 1, -1, 5.00), (NULL, NULL, -1, NULL), (99999999999999999999999999.99, 3, 7, "
        "6.00), (-99999999999999999999999999.99, 3, 7, 7.00), (18446744073709551616.00, 1, 1, "
        "8.00), (-18446744073709551616.00, 1, 1, 9.00), (12345678901234567890123.45, 1, -1, "
        "10.00);");
    return d;
  }();
  return *db;
}

Result run(const std::string& sql, DeviceChoice device, const std::string& strategy = "auto",
           uint64_t capacity = 0) {
  ExecOptions options;
  options.device = device;
  options.strategy = strategy;
  options.hash_capacity = capacity;
  std::optional<Result> last;
  wide_db().execute_script(sql, options, [&](const StatementOutcome& o) {
    if (o.result) last = o.result;
  });
  REQUIRE(last.has_value());
  return *last;
}

// The GPU (auto, and forced hash at `capacity` when > 0) against the CPU; rows in any
// order unless `ordered`.
void check_gpu(const std::string& sql, bool ordered = false, uint64_t capacity = 0) {
  INFO(sql);
  Result cpu = run(sql, DeviceChoice::Cpu);
  std::vector<Result> gpus = {run(sql, DeviceChoice::Gpu)};
  if (capacity > 0) gpus.push_back(run(sql, DeviceChoice::Gpu, "hash", capacity));
  for (const Result& gpu : gpus) {
    CHECK(gpu.device.rfind("gpu", 0) == 0);
    CHECK(test::result_difference(cpu, gpu, {}) == "");
    if (!ordered) continue;
    REQUIRE(gpu.rows.size() == cpu.rows.size());
    for (size_t r = 0; r < cpu.rows.size(); ++r) {
      for (size_t c = 0; c < cpu.types.size(); ++c) {
        CHECK(gpu.cell_text(r, c) == cpu.cell_text(r, c));
      }
    }
  }
}

}  // namespace

TEST_CASE("gpu wide keys: several keys with one computed key, NULLs in both kinds") {
  check_gpu(
      "SELECT l_orderkey * 7 + l_partkey, l_linestatus, COUNT(*), SUM(l_quantity) FROM lineitem "
      "GROUP BY l_orderkey * 7 + l_partkey, l_linestatus",
      false, 64);
  check_gpu(
      "SELECT c_integer + c_smallint * 3 AS q, c_varchar, c_boolean, COUNT(*), COUNT(c_bigint), "
      "SUM(c_decimal), COUNT(DISTINCT c_date) FROM nulls GROUP BY 1, 2, 3",
      false, 16);
  check_gpu(
      "SELECT c_smallint, c_double * 2, COUNT(*), VAR_SAMP(c_double), AVG(c_decimal) FROM nulls "
      "GROUP BY 1, 2");
  // A column whose range passes 2^62 is raw too; a computed key of 0 meets NULL's low word.
  check_gpu("SELECT b, k, COUNT(*), SUM(v) FROM w GROUP BY b, k", false, 4);
  check_gpu("SELECT k, CASE WHEN k = 1 THEN 0 END AS z, COUNT(*) FROM w GROUP BY 1, 2");
}

TEST_CASE("gpu wide keys: a DECIMAL(30,2) key with NULLs and negative values") {
  check_gpu("SELECT d, COUNT(*), SUM(v), MIN(k) FROM w GROUP BY d", false, 2);
  check_gpu("SELECT d * 2 AS e, COUNT(*) FROM w GROUP BY 1");
  check_gpu("SELECT c_wide, COUNT(*), SUM(c_integer) FROM nulls GROUP BY c_wide", false, 4);
}

TEST_CASE("gpu wide keys: ORDER BY on the result sorts as on the CPU") {
  check_gpu("SELECT d, COUNT(*) AS n FROM w GROUP BY d ORDER BY d NULLS FIRST", true);
  check_gpu("SELECT d, SUM(v) AS s FROM w GROUP BY d ORDER BY d DESC LIMIT 5", true);
  check_gpu(
      "SELECT l_orderkey * 7 + l_partkey AS x, l_linestatus, COUNT(*) AS n FROM lineitem "
      "GROUP BY 1, 2 ORDER BY x DESC, l_linestatus LIMIT 20",
      true);
  check_gpu(
      "SELECT c_integer + c_smallint * 3 AS q, c_boolean, COUNT(*) AS n FROM nulls GROUP BY 1, 2 "
      "ORDER BY q NULLS LAST, c_boolean NULLS FIRST",
      true);
}

TEST_CASE("gpu wide keys: a small first capacity grows and reruns to the CPU's result") {
  // A computed key beside l_linestatus: 128-bit keys, about 60,000 groups from 64 slots.
  const char* computed =
      "SELECT l_orderkey + 0 * l_partkey, l_linestatus, COUNT(*) FROM lineitem GROUP BY 1, 2";
  const char* wide = "SELECT d, COUNT(*), SUM(v) FROM w GROUP BY d";
  // Two raw keys: key words, about 60,000 groups from 64 slots.
  const char* words =
      "SELECT l_orderkey * 1.5e0, l_partkey * 1e0, COUNT(*) FROM lineitem GROUP BY 1, 2";
  for (const char* text : {computed, wide, words}) {
    auto statements = parse_script(text);
    const auto& select = std::get<ast::SelectStmt>(statements[0].body);
    BoundSelect query = bind_select(select, wide_db(), 0);
    GpuEngine engine;
    GpuRunOptions options;
    options.strategy = GpuStrategy::Hash;
    options.hash_capacity = text == wide ? 1 : 64;
    GpuRunReport report;
    Result grown = engine.run(query, *wide_db().table(query.table), {},
                              std::make_shared<StringHeap>(), options, &report);
    CHECK(report.attempts > 1);
    INFO(text);
    CHECK(test::result_difference(run(text, DeviceChoice::Cpu), grown, {}) == "");
  }
}

TEST_CASE("gpu wide keys: many groups (TPC-H SF 0.05 by order and line status)") {
  check_gpu(
      "SELECT l_orderkey, l_linestatus, COUNT(*), SUM(l_extendedprice) FROM lineitem "
      "GROUP BY l_orderkey, l_linestatus");
  check_gpu(
      "SELECT l_orderkey * 7 + l_partkey, l_returnflag, l_linestatus, COUNT(*), "
      "AVG(l_discount) FROM lineitem GROUP BY 1, 2, 3");
}

TEST_CASE("gpu wide keys: two or more raw keys, a wide DECIMAL beside others (key words)") {
  check_gpu(
      "SELECT c_double + 1, c_real * 2, COUNT(*), SUM(c_decimal), VAR_SAMP(c_double) FROM nulls "
      "GROUP BY 1, 2",
      false, 16);
  check_gpu(
      "SELECT l_orderkey * 1.5e0 AS a, l_partkey * 1e0 AS b, l_returnflag, COUNT(*), "
      "SUM(l_extendedprice), COUNT(DISTINCT l_suppkey) FROM lineitem GROUP BY 1, 2, 3",
      false, 64);
  check_gpu("SELECT d, k, COUNT(*), SUM(v) FROM w GROUP BY d, k", false, 2);
  check_gpu("SELECT d, b, k, COUNT(*), MAX(v) FROM w GROUP BY 1, 2, 3", false, 4);
  check_gpu(
      "SELECT c_wide, c_double * 3, c_varchar, c_boolean, COUNT(*), MIN(c_integer) FROM nulls "
      "GROUP BY 1, 2, 3, 4",
      false, 8);
}

TEST_CASE("gpu wide keys: key words sort as on the CPU") {
  check_gpu(
      "SELECT c_double + 1 AS x, c_real * 2 AS y, COUNT(*) AS n FROM nulls GROUP BY 1, 2 "
      "ORDER BY x NULLS FIRST, y DESC NULLS LAST LIMIT 50",
      true);
  check_gpu("SELECT d, k, COUNT(*) AS n FROM w GROUP BY d, k ORDER BY d, k NULLS FIRST", true);
}

}  // namespace tally
