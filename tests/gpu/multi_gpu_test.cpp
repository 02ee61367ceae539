// A table split across engines (runtime/gpu/multi_gpu.h), tested on one GPU by splitting it
// into logical parts, each its own engine: every aggregated query of queries/ and the nulls
// table give the CPU engine's rows, with the parts' columns resident and streamed; queries
// whose states do not combine (DISTINCT sets on the GPU) say so. Co-processing (the CPU
// engine beside one streaming GPU) is held to the same.
#include "runtime/gpu/multi_gpu.h"

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "compiler/bind/binder.h"
#include "compiler/common/error.h"
#include "compiler/parse/parser.h"
#include "runtime/gpu/coprocess.h"
#include "runtime/session/database.h"
#include "tests/unit/support/query_files.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& parts_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 5));
    d->put_table(generate_orders_table(50000, 1000, 5));
    d->put_table(generate_atable(200000, 1u << 20, 0, 5));
    d->put_table(generate_nulls_table(60000, 0.2, 5));
    return d;
  }();
  return *db;
}

// The split run gives the CPU engine's rows, or says why the query's states do not combine.
void expect_parts_match_cpu(const std::string& sql, const std::vector<std::string>& params,
                            const std::string& devices, const char* placement,
                            const std::string& label, bool coprocess = false) {
  INFO(label);
  Database& db = parts_db();
  ExecOptions options;
  options.device = DeviceChoice::Gpu;
  options.parameters = params;
  options.devices = devices;
  options.placement = placement;
  options.batch_rows = 4096;
  options.coprocess = coprocess;
  const Result cpu = test::run_sql(db, sql, params);
  std::optional<StatementOutcome> last;
  try {
    db.execute_script(sql, options, [&](const StatementOutcome& o) {
      if (o.result) last = o;
    });
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.kind() == ErrorKind::Unsupported);
    const std::string what = e.what();
    CHECK((what.find("DISTINCT") != std::string::npos ||
           what.find("without aggregates") != std::string::npos));
    return;
  }
  REQUIRE(last.has_value());
  CHECK(last->result->device.rfind("gpu", 0) == 0);
  if (coprocess) {
    CHECK(last->result->device.find("with the CPU engine") != std::string::npos);
    CHECK(last->timings.gpu.find("CPU engine: ") != std::string::npos);
  } else {
    CHECK(last->timings.gpu.find("part 1 on GPU 0") != std::string::npos);
  }
  CHECK(test::result_difference(cpu, *last->result, test::float_tolerances(cpu)) == "");
}

// `sql` in 2 and 4 parts, resident and streamed, against the CPU engine.
void expect_splits_match_cpu(const char* sql) {
  for (const char* devices : {"0,0", "0,0,0,0"}) {
    expect_parts_match_cpu(sql, {}, devices, "device", std::string(devices) + " resident");
    expect_parts_match_cpu(sql, {}, devices, "host", std::string(devices) + " streamed");
  }
}

}  // namespace

TEST_CASE("gpu parts: split_rows gives block-aligned ranges that cover the table") {
  for (uint64_t rows : {0ull, 1000ull, 1024ull, 5000ull, 1'000'000ull}) {
    for (size_t parts : {1, 2, 3, 8}) {
      const auto ranges = split_rows(rows, parts);
      REQUIRE(ranges.size() == parts);
      uint64_t next = 0;
      for (const auto& [first, end] : ranges) {
        CHECK(first == next);
        CHECK(first % 1024 == 0);
        CHECK(first <= end);
        next = end;
      }
      CHECK(next == rows);
    }
  }
}

TEST_CASE("gpu parts: every aggregated query in queries/ split into parts matches the CPU") {
  for (const auto& q : test::query_files()) {
    const std::string sql = test::query_file(q.name);
    expect_parts_match_cpu(sql, q.params, "0,0", "device", q.name + ", 2 resident parts");
    expect_parts_match_cpu(sql, q.params, "0,0,0", "host", q.name + ", 3 streamed parts");
  }
}

TEST_CASE("gpu parts: every aggregated query in queries/ co-processed matches the CPU") {
  for (const auto& q : test::query_files()) {
    expect_parts_match_cpu(test::query_file(q.name), q.params, "", "host",
                           q.name + ", co-processed", true);
  }
}

TEST_CASE("gpu parts: NULLs and strings split into parts match the CPU") {
  const char* sql =
      "SELECT c_varchar, c_boolean, COUNT(*), COUNT(c_integer), SUM(c_bigint), SUM(c_decimal), "
      "SUM(c_wide), AVG(c_smallint), AVG(c_decimal), MIN(c_date), MAX(c_varchar), MIN(c_real), "
      "MAX(c_double), STDDEV_SAMP(c_integer), VAR_SAMP(c_decimal), SUM(c_double), "
      "VAR_SAMP(c_double) FROM nulls WHERE c_smallint IS NULL OR c_smallint > 2 "
      "GROUP BY c_varchar, c_boolean HAVING COUNT(*) > 1 ORDER BY 1, 2 LIMIT 5";
  expect_splits_match_cpu(sql);
  expect_parts_match_cpu(sql, {}, "", "host", "co-processed", true);
}

// The co-moment and moment states of each part (two passes over the part's own rows) combine
// on the host as the CPU's partial states do.
TEST_CASE("gpu parts: the statistical aggregates split into parts match the CPU") {
  const char* sql =
      "SELECT c_varchar, COVAR_POP(c_double, c_integer), COVAR_SAMP(c_real, c_smallint), "
      "CORR(c_double, c_decimal), REGR_SLOPE(c_double, c_smallint), REGR_INTERCEPT(c_double, "
      "c_smallint), REGR_COUNT(c_double, c_smallint), REGR_R2(c_real, c_integer), "
      "REGR_SXY(c_real, c_integer), SKEWNESS(c_double), KURTOSIS(c_integer) FROM nulls "
      "GROUP BY c_varchar ORDER BY 1";
  expect_splits_match_cpu(sql);
}

// ARG_MIN / ARG_MAX's pair words decode into the host's (value, key) states, which combine
// across parts by the same rule (the best key, then the least value).
TEST_CASE("gpu parts: ARG_MIN and ARG_MAX split into parts match the CPU") {
  const char* sql =
      "SELECT c_varchar, ARG_MIN(c_varchar, c_integer), MAX_BY(c_double, c_date), "
      "ARG_MIN(c_decimal, c_real), ARG_MAX(c_boolean, c_bigint), ARG_MIN(c_date, c_double) "
      "FROM nulls GROUP BY 1 ORDER BY 1";
  expect_splits_match_cpu(sql);
  expect_parts_match_cpu(sql, {}, "", "host", "co-processed", true);
}

TEST_CASE("gpu parts: co-processing with the CPU engine matches the CPU engine alone") {
  Database& db = parts_db();
  GpuEngine engine;
  for (const char* sql :
       {"SELECT l_returnflag, l_linestatus, SUM(l_quantity), AVG(l_extendedprice), COUNT(*), "
        "VAR_SAMP(l_discount), MIN(l_shipdate) FROM lineitem GROUP BY 1, 2",
        "SELECT c_varchar, COUNT(c_integer), SUM(c_decimal), MAX(c_varchar), "
        "STDDEV_SAMP(c_double) FROM nulls GROUP BY c_varchar"}) {
    INFO(sql);
    auto statements = parse_script(sql);
    const BoundSelect query = bind_select(std::get<ast::SelectStmt>(statements[0].body), db, 0);
    const Result cpu = test::run_sql(db, sql);
    // Small batches, so that the GPU's part takes many from the queue beside the CPU's chunks.
    for (uint64_t batch_rows : {8192, 65536}) {
      GpuRunOptions options;
      options.batch_rows = batch_rows;
      CoprocessReport report;
      const Result split = run_coprocessed(engine, query, *db.table(query.table), {},
                                           std::make_shared<StringHeap>(), options, &report);
      CHECK(report.cpu_rows > 0);  // its first chunk is taken before the GPU starts
      CHECK(report.cpu_chunks > 0);
      CHECK(report.gpu_rows + report.cpu_rows == db.table(query.table)->rows());
      CHECK(test::result_difference(cpu, split, test::float_tolerances(cpu)) == "");
    }
  }
}

}  // namespace tally
