// Columns streamed from host memory (issue 17): every query of queries/, the nulls table
// (validity words cut at batch edges), and a device memory limit that forces streaming give
// the CPU engine's rows, with batches that leave a partial last batch.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/unit/support/query_files.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& streamed_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 7));
    d->put_table(generate_orders_table(50000, 1000, 7));
    d->put_table(generate_atable(200000, 1u << 20, 0, 7));
    d->put_table(generate_nulls_table(60000, 0.2, 7));
    return d;
  }();
  return *db;
}

struct Run {
  Result result;
  std::string gpu_timing;  // says where the columns came from
};

Run run(Database& db, const std::string& sql, const std::vector<std::string>& params,
        DeviceChoice device, const ExecOptions& base = {}) {
  ExecOptions options = base;
  options.device = device;
  options.parameters = params;
  std::optional<Run> last;
  db.execute_script(sql, options, [&](const StatementOutcome& o) {
    if (o.result) last = Run{*o.result, o.timings.gpu};
  });
  REQUIRE(last.has_value());
  return *last;
}

void expect_streamed_matches_cpu(Database& db, const std::string& sql,
                                 const std::vector<std::string>& params, ExecOptions options,
                                 const std::string& label) {
  INFO(label);
  const Result cpu = run(db, sql, params, DeviceChoice::Cpu).result;
  Run gpu = run(db, sql, params, DeviceChoice::Gpu, options);
  CHECK(gpu.result.device.rfind("gpu", 0) == 0);
  CHECK(gpu.gpu_timing.find("host memory, streamed") != std::string::npos);
  CHECK(test::result_difference(cpu, gpu.result, test::float_tolerances(cpu)) == "");
}

}  // namespace

TEST_CASE("streamed scan: every query in queries/ from host memory matches the CPU engine") {
  for (const auto& q : test::query_files()) {
    const std::string sql = test::query_file(q.name);
    for (const char* strategy : {"auto", "thread", "block", "direct", "hash"}) {
      ExecOptions options;
      options.placement = "host";
      options.batch_rows = 5000;  // 5,120-row batches: the tables end in a partial one
      options.strategy = strategy;
      try {
        expect_streamed_matches_cpu(streamed_db(), sql, q.params, options,
                                    q.name + " --strategy " + strategy);
      } catch (const Error& e) {
        INFO(q.name << " --strategy " << strategy << ": " << e.what());
        CHECK(e.kind() == ErrorKind::Unsupported);  // a strategy that cannot run the query
        CHECK(std::string(strategy) != "auto");
      }
    }
    ExecOptions chosen;  // the batch size the engine picks
    chosen.placement = "host";
    expect_streamed_matches_cpu(streamed_db(), sql, q.params, chosen, q.name + " chosen batches");
  }
}

TEST_CASE("streamed scan: NULLs at every batch edge match the CPU engine") {
  const char* sql =
      "SELECT c_varchar, c_boolean, COUNT(*), COUNT(c_integer), SUM(c_bigint), SUM(c_decimal), "
      "AVG(c_smallint), MIN(c_date), MAX(c_double), SUM(c_double), VAR_SAMP(c_smallint), "
      "STDDEV_SAMP(c_double) FROM nulls WHERE c_smallint IS NULL OR c_smallint > 2 "
      "GROUP BY c_varchar, c_boolean";
  for (uint64_t batch : {1024, 3000, 65536}) {
    ExecOptions options;
    options.placement = "host";
    options.batch_rows = batch;
    expect_streamed_matches_cpu(streamed_db(), sql, {}, options,
                                "nulls, batches of " + std::to_string(batch));
  }
  ExecOptions projection;
  projection.placement = "host";
  projection.batch_rows = 2048;
  expect_streamed_matches_cpu(streamed_db(),
                              "SELECT c_integer, c_varchar FROM nulls WHERE c_bigint > 100", {},
                              projection, "projection");
}

TEST_CASE("streamed scan: a device memory limit below the columns streams them under auto") {
  Database db;
  db.put_table(generate_lineitem(0.1, 3));  // 600 K rows: Q1's columns take 4.5 MB
  ExecOptions options;
  options.placement = "auto";
  options.device_memory_limit = 3 << 20;
  // Each reads more than half the limit; few groups, so the states fit beside the batches.
  for (const char* name : {"tpch_q1", "tpch_q6", "shipmode_stats"}) {
    expect_streamed_matches_cpu(db, test::query_file(name), {}, options, name);
  }
  // Without the limit the same table stays on the device.
  Run resident = run(db, test::query_file("tpch_q1"), {}, DeviceChoice::Gpu);
  CHECK(resident.gpu_timing.find("columns from device") != std::string::npos);
}

}  // namespace tally
