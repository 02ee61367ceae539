// Prepared statements on the GPU: each execution equals the CPU engine's result, and an
// execution whose data gives the plan seen before reports a plan-cache hit (no codegen,
// no compile). Only exact aggregates here (COUNT, MIN, MAX), so results compare as text.
#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

#include "runtime/session/database.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

StatementOutcome execute(Database& db, const PreparedSelect& statement, DeviceChoice device,
                         const std::string& parameter) {
  ExecOptions options;
  options.device = device;
  options.parameters = {parameter};
  StatementOutcome outcome = db.execute_prepared(statement, options);
  REQUIRE(outcome.result.has_value());
  return outcome;
}

std::vector<std::string> cells(const Result& r) {
  std::vector<std::string> out;
  for (size_t row = 0; row < r.rows.size(); ++row) {
    for (size_t col = 0; col < r.names.size(); ++col) out.push_back(r.cell_text(row, col));
  }
  return out;
}

void check_equal_to_cpu(Database& db, const PreparedSelect& statement, const std::string& value,
                        const StatementOutcome& gpu) {
  INFO("parameter " << value);
  CHECK(gpu.result->device.rfind("gpu", 0) == 0);
  CHECK(cells(*gpu.result) == cells(*execute(db, statement, DeviceChoice::Cpu, value).result));
}

const char* const kQuery =
    "SELECT zip, COUNT(*), MAX(chargedamount), MIN(tax) FROM orders WHERE zip >= ? GROUP BY zip "
    "ORDER BY zip";

TEST_CASE("gpu prepared: a second execution hits the plan cache and equals the CPU") {
  Database db;
  db.put_table(generate_orders_table(20000, 500, 11));
  auto statement = db.prepare(kQuery);

  StatementOutcome first = execute(db, *statement, DeviceChoice::Gpu, "100");
  check_equal_to_cpu(db, *statement, "100", first);
  CHECK(first.timings.gpu.find("(plan cache)") == std::string::npos);

  StatementOutcome second = execute(db, *statement, DeviceChoice::Gpu, "250");
  check_equal_to_cpu(db, *statement, "250", second);
  CHECK(second.timings.gpu.find("codegen 0.00 ms, NVRTC 0.0 ms (plan cache)") != std::string::npos);
  CHECK(statement->plans->hits() >= 1);

  // Other data, same shape: a new plan (more zips), still equal to the CPU.
  db.put_table(generate_orders_table(30000, 5000, 12));
  StatementOutcome other = execute(db, *statement, DeviceChoice::Gpu, "100");
  check_equal_to_cpu(db, *statement, "100", other);
  CHECK(other.timings.gpu.find("(plan cache)") == std::string::npos);
}

TEST_CASE("gpu prepared: threads executing one statement at once get the CPU's results") {
  Database db;
  db.put_table(generate_orders_table(20000, 500, 13));
  auto statement = db.prepare(kQuery);
  const std::vector<std::string> values = {"0", "50", "200", "400"};
  std::vector<std::vector<std::string>> gpu(values.size());
  std::vector<std::string> errors(values.size());
  {
    std::vector<std::jthread> threads;
    for (size_t i = 0; i < values.size(); ++i) {
      threads.emplace_back([&, i] {
        ExecOptions options;
        options.device = DeviceChoice::Gpu;
        options.parameters = {values[i]};
        try {
          gpu[i] = cells(*db.execute_prepared(*statement, options).result);
        } catch (const std::exception& e) {
          errors[i] = e.what();
        }
      });
    }
  }
  for (size_t i = 0; i < values.size(); ++i) {
    INFO("parameter " << values[i]);
    CHECK(errors[i].empty());
    CHECK(gpu[i] == cells(*execute(db, *statement, DeviceChoice::Cpu, values[i]).result));
  }
  CHECK(statement->plans->size() == 1);
}

// A plain statement's text run again: its plans are the session's (runtime/session/
// statement_cache.h), so the second run skips codegen; a table of another shape under the
// same name starts them over, and every run equals the CPU.
TEST_CASE("gpu ad hoc plans: a SELECT run again hits the plan cache until its table changes") {
  Database db;
  db.put_table(generate_orders_table(20000, 500, 14));
  const std::string sql =
      "SELECT zip, COUNT(*), MAX(chargedamount), MIN(tax) FROM orders GROUP BY zip ORDER BY zip";
  auto run = [&](DeviceChoice device) {
    ExecOptions options;
    options.device = device;
    StatementOutcome outcome;
    db.execute_script(sql + ";" + sql, options, [&](const StatementOutcome& o) { outcome = o; });
    REQUIRE(outcome.result.has_value());
    return outcome;
  };
  StatementOutcome twice = run(DeviceChoice::Gpu);  // the script's second statement
  CHECK(twice.timings.gpu.find("(plan cache)") != std::string::npos);
  CHECK(cells(*twice.result) == cells(*run(DeviceChoice::Cpu).result));

  db.put_table(generate_orders_table(30000, 5000, 15));
  ExecOptions cpu;
  cpu.device = DeviceChoice::Cpu;
  db.execute_script(
      "CREATE TABLE swapped AS SELECT tax, ordertotal, chargedamount, zip FROM orders;"
      "DROP TABLE orders; CREATE TABLE orders AS SELECT * FROM swapped",
      cpu, [](const StatementOutcome&) {});
  ExecOptions gpu;
  gpu.device = DeviceChoice::Gpu;
  StatementOutcome other;
  db.execute_script(sql, gpu, [&](const StatementOutcome& o) { other = o; });
  REQUIRE(other.result.has_value());
  CHECK(other.timings.gpu.find("(plan cache)") == std::string::npos);
  CHECK(cells(*other.result) == cells(*run(DeviceChoice::Cpu).result));
}

}  // namespace
}  // namespace tally
