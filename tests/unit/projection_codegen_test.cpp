// CI half of non-aggregated SELECT on the GPU: the planner takes such queries, --explain
// says the projection plan, and the generated count and write kernels compile with NVRTC
// for sm_90 without a warning — no GPU needed.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "compiler/common/error.h"
#include "runtime/compile/nvrtc.h"
#include "tests/unit/support/planner_fixture.h"

namespace tally {
namespace {

Database& projection_db() {
  static Database* db =
      test::make_planner_db("CREATE TABLE empty_t (i INTEGER, t VARCHAR(5), d DECIMAL(30,2))");
  return *db;
}

BoundSelect bind(const std::string& sql) { return test::bind_first(projection_db(), sql); }

GpuPlan plan_of(const BoundSelect& query, const std::string& strategy = "auto") {
  return test::plan_bound(projection_db(), query, strategy_from_name(strategy));
}

// Generates and compiles `sql`; checks NVRTC had nothing to say.
GpuCompilation compile_clean(const std::string& sql) {
  BoundSelect query = bind(sql);
  TablePtr table = projection_db().table(query.table);
  std::vector<ColumnStats> stats = scan_stats(query, *table);
  GpuPlan plan = plan_for(query, stats, table->rows(), GpuCompileOptions{});
  GpuCompilation c = compile_plan(query, stats, plan, "sm_90");
  INFO(sql);
  INFO(c.program->source);
  CHECK_MESSAGE(c.binary->log.empty(), "NVRTC said: " << c.binary->log);
  CHECK(c.program->source.find("tally_scan_count") != std::string::npos);
  CHECK(c.program->source.find("tally_scan_write") != std::string::npos);
  CHECK(c.program->projected.size() == query.outputs.size());
  return c;
}

const char* const kProjections[] = {
    // Filters, DECIMAL arithmetic, dates, strings as codes.
    "SELECT l_orderkey, l_extendedprice * (1 - l_discount) * (1 + l_tax), l_shipdate, "
    "EXTRACT(YEAR FROM l_shipdate), l_returnflag, l_comment FROM lineitem "
    "WHERE l_shipdate < DATE '1994-01-01' AND l_quantity / (l_linenumber - 1) > 2",
    // No filter: the count pass reads nothing.
    "SELECT l_tax, l_shipmode FROM lineitem",
    // NULLs of every type, a wide DECIMAL, REAL/DOUBLE, a string predicate on codes.
    "SELECT c_varchar, c_integer / c_smallint, c_wide * 2, c_double + c_real, c_boolean, c_date, "
    "c_varchar LIKE 'a%', COALESCE(c_bigint, 0) FROM nulls WHERE c_smallint <> 0 OR c_smallint IS "
    "NULL",
    // ORDER BY a hidden output, OFFSET and LIMIT (finished on the host).
    "SELECT l_orderkey FROM lineitem WHERE l_quantity > 10 ORDER BY l_extendedprice DESC, "
    "l_orderkey LIMIT 10 OFFSET 3",
    // Parameters in the filter and the outputs.
    "SELECT l_orderkey + ?, l_discount FROM lineitem WHERE l_quantity > ? LIMIT ?",
    // An empty table.
    "SELECT i, t, d FROM empty_t WHERE i > 3",
};

}  // namespace

TEST_CASE("projection: the planner takes queries without GROUP BY - with a projection plan") {
  GpuPlan plan = plan_of(bind("SELECT l_orderkey FROM lineitem WHERE l_quantity > 3"));
  CHECK(plan.projection);
  CHECK(plan.block == 256);
  // About 60,000 rows of SF 0.01 in tiles of 512 rows: fewer tiles than a full grid.
  CHECK(plan.grid == (projection_db().table("lineitem")->rows() + 511) / 512);
  CHECK(plan_of(bind("SELECT i FROM empty_t")).grid == 1);
  // Nothing is grouped, so no grouping strategy can be forced on it.
  CHECK_THROWS_AS(plan_of(bind("SELECT l_orderkey FROM lineitem"), "hash"), Error);
  // Aggregations keep their plans.
  CHECK_FALSE(plan_of(bind("SELECT COUNT(*) FROM lineitem")).projection);
}

TEST_CASE("projection: the plan fingerprint tells a projection from an aggregation") {
  GpuPlan plan = plan_of(bind("SELECT l_orderkey FROM lineitem"));
  GpuPlan other = plan;
  other.projection = false;
  CHECK(plan_fingerprint(plan, {}, "sm_90") != plan_fingerprint(other, {}, "sm_90"));
}

TEST_CASE("projection: --explain says the projection plan") {
  ExecOptions options;
  options.compile_only = true;
  options.explain = true;
  std::string explain;
  projection_db().execute_script("SELECT l_orderkey, l_tax FROM lineitem WHERE l_linenumber = 1",
                                 options, [&](const StatementOutcome& o) { explain = o.explain; });
  CHECK(explain.find("GPU plan: projection") != std::string::npos);
  CHECK(explain.find("count pass, then write pass") != std::string::npos);
  // SF 0.01 has about 60,000 rows: fewer tiles of 512 than a full grid, one tile a block.
  uint64_t tiles = (projection_db().table("lineitem")->rows() + 511) / 512;
  CHECK(explain.find(fmt::format(
            "{} blocks x 256 threads, each block 1 contiguous tile of 512 rows", tiles)) !=
        std::string::npos);
  CHECK(explain.find("input order") != std::string::npos);
}

TEST_CASE("projection: generated CUDA compiles with NVRTC for sm_90 without warnings") {
  if (!cuda::nvrtc_available()) {
    MESSAGE("libnvrtc not found: skipped");
    return;
  }
  for (const char* sql : kProjections) compile_clean(sql);
  GpuCompilation c = compile_clean(kProjections[2]);
  // c_varchar comes back as dictionary codes, c_wide * 2 in 16-byte cells.
  CHECK(c.program->projected[0].dictionary == 0);
  CHECK(c.program->projected[2].bytes == 16);
  CHECK(c.program->projected[1].bytes == 8);
  CHECK(c.program->projected[1].dictionary == -1);
  // A filter-less count pass reads no column.
  GpuCompilation all = compile_clean(kProjections[1]);
  std::string count = all.program->source.substr(0, all.program->source.find("tally_scan_write"));
  CHECK(count.find("load_ro") == std::string::npos);
}

TEST_CASE("projection: what the GPU cannot compute stays Unsupported - with the usual message") {
  auto message = [](const std::string& sql) -> std::string {
    try {
      BoundSelect query = bind(sql);
      TablePtr table = projection_db().table(query.table);
      std::vector<ColumnStats> stats = scan_stats(query, *table);
      generate_cuda(query, plan_of(query), stats);
    } catch (const Error& e) {
      CHECK_MESSAGE(e.kind() == ErrorKind::Unsupported, e.what());
      return e.what();
    }
    return "";
  };
  CHECK(message("SELECT COALESCE(c_varchar, 'none') FROM nulls")
            .find("the string expression \"COALESCE(c_varchar, 'none')\" is not supported on the "
                  "GPU") != std::string::npos);
  CHECK(message("SELECT 'constant', c_integer FROM nulls").find("string constant") !=
        std::string::npos);
  CHECK(message("SELECT c_integer FROM nulls") == "");
}

TEST_CASE("projection: tally compile generates and compiles a projection") {
  if (!cuda::nvrtc_available()) return;
  ExecOptions options;
  options.compile_only = true;
  options.emit_cuda = true;
  int compiled = 0;
  projection_db().execute_script("SELECT l_orderkey, l_comment FROM lineitem WHERE l_tax > 0.02",
                                 options, [&](const StatementOutcome& o) {
                                   CHECK(o.tag.rfind("COMPILE sm_90", 0) == 0);
                                   CHECK(o.cuda.find("place_tile_rows") != std::string::npos);
                                   ++compiled;
                                 });
  CHECK(compiled == 1);
}

}  // namespace tally
