// Compared constants as parameters on the GPU (compiler/plan/lifted_constants.h): statements
// that differ only in a date or an integer give the CPU engine's rows, and the second finds the
// first's kernels in memory instead of compiling its own.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <optional>
#include <string>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/unit/support/result_check.h"
#include "tests/unit/support/result_compare.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& lifted_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_lineitem(0.05, 19));
    return d;
  }();
  return *db;
}

StatementOutcome run(const std::string& sql, DeviceChoice device,
                     const std::vector<std::string>& params = {}) {
  ExecOptions options;
  options.device = device;
  options.parameters = params;
  std::optional<StatementOutcome> last;
  lifted_db().execute_script(sql, options, [&](const StatementOutcome& o) { last = o; });
  REQUIRE(last.has_value());
  REQUIRE(last->result.has_value());
  return *last;
}

void check_against_cpu(const StatementOutcome& gpu, const std::string& sql,
                       const std::vector<std::string>& params = {}) {
  INFO(sql);
  CHECK(gpu.result->device.rfind("gpu", 0) == 0);
  const StatementOutcome cpu = run(sql, DeviceChoice::Cpu, params);
  CHECK(test::result_difference(*cpu.result, *gpu.result, {}) == "");
}

}  // namespace

TEST_CASE("gpu lifted constants: another date or threshold reuses the kernels - same rows") {
  const std::string shape =
      "SELECT l_returnflag, l_linestatus, COUNT(*), SUM(l_quantity), AVG(l_discount) FROM "
      "lineitem WHERE l_shipdate <= DATE '{}' AND l_suppkey > {} GROUP BY 1, 2 ORDER BY 1, 2";
  bool first = true;
  for (auto [date, key] : {std::pair{"1998-09-02", 10}, std::pair{"1994-06-30", 400},
                           std::pair{"1992-01-01", 0}, std::pair{"1999-01-01", 99999}}) {
    const std::string sql = fmt::format(fmt::runtime(shape), date, key);
    const StatementOutcome gpu = run(sql, DeviceChoice::Gpu);
    INFO(gpu.timings.gpu);
    if (!first) CHECK(gpu.timings.gpu.find("(memory cache)") != std::string::npos);
    check_against_cpu(gpu, sql);
    first = false;
  }
  // Beside a parameter of the statement's own, whose number stays first.
  const std::string with_parameter =
      "SELECT COUNT(*), SUM(l_extendedprice) FROM lineitem WHERE l_partkey < ? AND l_shipdate > "
      "DATE '1995-01-01'";
  check_against_cpu(run(with_parameter, DeviceChoice::Gpu, {"5000"}), with_parameter, {"5000"});
  check_against_cpu(run(test::query_file("tpch_q6"), DeviceChoice::Gpu),
                    test::query_file("tpch_q6"));
}

// An operation on parameters alone is one lookup entry the host evaluates an execution
// (compiler/codegen/cuda_expr.cpp same_in_every_row): the rows it gives must be the CPU's, and
// its failure must stop the statement exactly where a row reaches it.
TEST_CASE("gpu lifted constants: an operation on parameters is evaluated once per execution") {
  const std::string window = test::query_file("monthly_window");
  for (const auto& [from, to] :
       {std::pair{"1995-01-01", "1995-01-01"}, std::pair{"1996-11-15", "1996-03-31"}}) {
    check_against_cpu(run(window, DeviceChoice::Gpu, {from, to}), window, {from, to});
  }
  // 1 / 0: no row passes l_quantity < 0, so nothing evaluates it; every row does without it.
  const std::string unreached =
      "SELECT COUNT(*) FROM lineitem WHERE l_quantity < 0 AND l_tax < CAST(? AS INTEGER) / "
      "CAST(? AS INTEGER)";
  check_against_cpu(run(unreached, DeviceChoice::Gpu, {"1", "0"}), unreached, {"1", "0"});
  const std::string reached =
      "SELECT COUNT(*) FROM lineitem WHERE l_tax < CAST(? AS INTEGER) / CAST(? AS INTEGER)";
  std::string messages[2];
  for (DeviceChoice device : {DeviceChoice::Cpu, DeviceChoice::Gpu}) {
    ExecOptions options;
    options.device = device;
    options.parameters = {"1", "0"};
    try {
      lifted_db().execute_script(reached, options, [](const StatementOutcome&) {});
    } catch (const Error& e) {
      messages[device == DeviceChoice::Gpu] = e.what();
    }
  }
  CHECK(messages[0].find("division by zero") != std::string::npos);
  CHECK(messages[1] == messages[0]);
}

}  // namespace tally
