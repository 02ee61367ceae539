// Non-aggregated SELECT on the GPU against the CPU engine, row for row and in order: the
// GPU keeps input row order (no ORDER BY) and finishes ORDER BY / LIMIT as the CPU does, so
// the results must be equal, not merely equal as sets.
#include <doctest/doctest.h>

#include <cmath>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally {
namespace {

Database& projection_db() {
  static Database* db = [] {
    auto* d = new Database();
    // SF 0.2: 1.2 million rows, more tiles than an H100's grid has blocks, so blocks walk
    // several tiles and the write pass carries its offset from tile to tile.
    d->put_table(generate_lineitem(0.2, 11));
    d->put_table(generate_nulls_table(60000, 0.2, 11));
    ExecOptions cpu;
    cpu.device = DeviceChoice::Cpu;
    d->execute_script("CREATE TABLE empty_t (i INTEGER, t VARCHAR(5), d DECIMAL(12,2))", cpu,
                      [](const StatementOutcome&) {});
    return d;
  }();
  return *db;
}

Result run(const std::string& sql, DeviceChoice device, std::vector<std::string> params = {}) {
  ExecOptions options;
  options.device = device;
  options.parameters = std::move(params);
  std::optional<Result> last;
  projection_db().execute_script(sql, options, [&](const StatementOutcome& o) {
    if (o.result) last = o.result;
  });
  REQUIRE(last.has_value());
  return *last;
}

// Equal row for row; floats to a relative 1e-12 (both engines do the same IEEE operations
// per row, so they agree unless a compiler contracts a multiply-add).
void check_same(const std::string& sql, std::vector<std::string> params = {}) {
  INFO(sql);
  Result cpu = run(sql, DeviceChoice::Cpu, params);
  Result gpu = run(sql, DeviceChoice::Gpu, params);
  CHECK(gpu.device.rfind("gpu", 0) == 0);
  REQUIRE(cpu.names == gpu.names);
  REQUIRE(cpu.rows.size() == gpu.rows.size());
  for (size_t r = 0; r < cpu.rows.size(); ++r) {
    for (size_t c = 0; c < cpu.types.size(); ++c) {
      const Value& x = cpu.rows[r][c];
      const Value& y = gpu.rows[r][c];
      INFO("row " << r << " column " << cpu.names[c]);
      REQUIRE(x.null == y.null);
      if (x.null) continue;
      if (cpu.types[c].is_float()) {
        REQUIRE(std::fabs(x.f - y.f) <= 1e-12 * std::max(1.0, std::fabs(x.f)));
      } else {
        REQUIRE(cpu.cell_text(r, c) == gpu.cell_text(r, c));
      }
    }
  }
}

std::string error_of(const std::string& sql, DeviceChoice device) {
  try {
    run(sql, device);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Execution);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("gpu projection: filters, DECIMAL arithmetic, dates and strings, in input order") {
  check_same(
      "SELECT l_orderkey, l_linenumber, l_extendedprice * (1 - l_discount) * (1 + l_tax), "
      "l_shipdate, EXTRACT(YEAR FROM l_shipdate), l_shipdate + INTERVAL '1' MONTH, "
      "l_returnflag, l_shipmode, l_comment FROM lineitem "
      "WHERE l_shipdate < DATE '1993-06-01' AND l_shipmode IN ('AIR', 'RAIL')");
  // Every row: the count pass reads nothing, the write pass every tile of every block.
  check_same("SELECT l_orderkey, l_quantity, l_linestatus FROM lineitem");
  // A filter that keeps scattered rows (about 1 in 7) across the whole table.
  check_same("SELECT l_orderkey, l_partkey FROM lineitem WHERE l_linenumber = 3");
  // No column to read at all: constants per passing row.
  check_same("SELECT 42, 1.5 * 2 FROM lineitem");
  check_same("SELECT l_orderkey + ?, l_discount FROM lineitem WHERE l_quantity > ?", {"5", "49"});
}

TEST_CASE("gpu projection: NULLs of every type") {
  check_same(
      "SELECT c_varchar, c_integer / c_smallint, c_wide * 2, c_double + c_real, c_boolean, "
      "c_date, c_varchar LIKE 'a%', COALESCE(c_bigint, 0), c_decimal * c_decimal FROM nulls "
      "WHERE c_smallint <> 0 OR c_smallint IS NULL");
  check_same("SELECT c_smallint, c_varchar FROM nulls WHERE c_boolean");
}

TEST_CASE("gpu projection: ORDER BY, hidden sort outputs, OFFSET and LIMIT") {
  check_same(
      "SELECT l_orderkey, l_extendedprice * (1 - l_discount) AS revenue FROM lineitem "
      "WHERE l_shipdate < DATE '1993-01-01' ORDER BY revenue DESC, l_orderkey LIMIT 20 OFFSET 5");
  check_same(
      "SELECT l_orderkey, l_linenumber FROM lineitem WHERE l_quantity > 45 "
      "ORDER BY l_extendedprice, l_comment DESC LIMIT 50");
  check_same("SELECT l_orderkey FROM lineitem LIMIT 7 OFFSET 100000");
}

TEST_CASE("gpu projection: empty results and an empty table") {
  check_same("SELECT l_orderkey, l_comment FROM lineitem WHERE l_quantity > 1000");
  check_same("SELECT i, t, d FROM empty_t");
  check_same("SELECT i + 1, t FROM empty_t WHERE i > 3 ORDER BY i");
  CHECK(run("SELECT i, t, d FROM empty_t", DeviceChoice::Gpu).rows.empty());
}

TEST_CASE("gpu projection: errors on a passing row are the CPU engine's, guarded ones never run") {
  const char* divide = "SELECT l_orderkey, l_quantity / (l_linenumber - 1) FROM lineitem";
  std::string cpu = error_of(divide, DeviceChoice::Cpu);
  CHECK(cpu.find("division by zero") != std::string::npos);
  CHECK(error_of(divide, DeviceChoice::Gpu) == cpu);
  // The rows that would divide by zero fail the filter: no error on either engine.
  check_same(
      "SELECT l_orderkey, l_quantity / (l_linenumber - 1) FROM lineitem WHERE l_linenumber > 1");
  const char* overflow = "SELECT CAST(l_orderkey AS INTEGER) * 1000000 FROM lineitem";
  std::string cpu_overflow = error_of(overflow, DeviceChoice::Cpu);
  CHECK_FALSE(cpu_overflow.empty());
  CHECK(error_of(overflow, DeviceChoice::Gpu) == cpu_overflow);
}

}  // namespace tally
