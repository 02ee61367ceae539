#include "tests/gpu/strategy_compare.h"

#include <doctest/doctest.h>

#include <optional>

#include "compiler/common/error.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"

namespace tally::test {

std::vector<ColumnTolerance> gpu_tolerances(const Result& r, double relative) {
  std::vector<ColumnTolerance> t;
  for (const Type& type : r.types) {
    t.push_back(type.is_float() ? ColumnTolerance{relative, 1e-9} : ColumnTolerance{});
  }
  return t;
}

Result run_on_device(Database& db, const std::string& sql, DeviceChoice device,
                     const std::string& strategy, uint64_t hash_capacity) {
  ExecOptions options;
  options.device = device;
  options.strategy = strategy;
  options.hash_capacity = hash_capacity;
  return last_result(db, sql, options);
}

void check_declined_to_cpu(Database& db, const std::string& sql, const std::string& reason) {
  INFO(sql);
  try {
    run_on_device(db, sql, DeviceChoice::Gpu, "auto");
    FAIL("the GPU ran a query it should decline for " << reason);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Unsupported);
    CHECK(std::string(e.what()).find(reason) != std::string::npos);
  }
  const Result automatic = run_on_device(db, sql, DeviceChoice::Auto, "auto");
  CHECK(automatic.device.rfind("cpu", 0) == 0);
  const Result cpu = run_sql(db, sql);
  CHECK(result_difference(cpu, automatic, gpu_tolerances(cpu)) == "");
}

int compare_gpu_strategies(Database& db, const std::string& sql, double relative) {
  INFO(sql);
  const Result cpu = run_sql(db, sql);
  int ran = 0;
  for (const char* strategy : {"auto", "thread", "block", "direct", "hash"}) {
    INFO("strategy " << strategy);
    try {
      const Result gpu = run_on_device(db, sql, DeviceChoice::Gpu, strategy);
      CHECK(gpu.device.rfind("gpu", 0) == 0);
      CHECK(result_difference(cpu, gpu, gpu_tolerances(cpu, relative)) == "");
      ++ran;
    } catch (const Error& e) {
      INFO(e.what());
      CHECK(e.kind() == ErrorKind::Unsupported);  // a strategy that cannot take the shape
      CHECK(std::string(strategy) != "auto");
    }
  }
  return ran;
}

std::pair<Result, std::string> run_forced_block(Database& db, const std::string& sql) {
  return run_explained(db, sql, "block");
}

std::pair<Result, std::string> run_explained(Database& db, const std::string& sql,
                                             const std::string& strategy) {
  ExecOptions options;
  options.strategy = strategy;
  return run_explained(db, sql, options);
}

std::pair<Result, std::string> run_explained(Database& db, const std::string& sql,
                                             ExecOptions options) {
  options.device = DeviceChoice::Gpu;
  options.explain = true;
  std::optional<Result> result;
  std::string explain;
  db.execute_script(sql, options, [&](const StatementOutcome& o) {
    if (o.result) result = o.result;
    explain += o.explain;
  });
  REQUIRE(result.has_value());
  return {*result, explain};
}

std::string check_streamed(Database& db, const std::string& sql, uint64_t batch_rows) {
  const Result cpu = run_sql(db, sql);
  ExecOptions options;
  options.placement = "host";
  options.batch_rows = batch_rows;
  const auto [gpu, explain] = run_explained(db, sql, options);
  INFO(explain);
  CHECK(gpu.device.rfind("gpu", 0) == 0);
  CHECK(explain.find("scan: once per batch of rows") != std::string::npos);
  CHECK(result_difference(cpu, gpu, gpu_tolerances(cpu)) == "");
  return explain;
}

}  // namespace tally::test
