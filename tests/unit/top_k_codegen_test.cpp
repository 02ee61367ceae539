// The device top-k's half that needs no GPU: which queries get tally_top_k, that NVRTC
// compiles it for sm_90, and the run's order flags.
#include <doctest/doctest.h>

#include <string>

#include "compiler/codegen/top_k_kernel.h"
#include "runtime/compile/nvrtc.h"
#include "runtime/session/database.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

Database& nulls_db() {
  static Database* db = [] {
    auto* d = new Database();
    d->put_table(generate_nulls_table(3000, 0.2, 5));
    return d;
  }();
  return *db;
}

// The generated CUDA of one SELECT, compiled by NVRTC.
std::string compiled_cuda(const std::string& sql) {
  ExecOptions options;
  options.compile_only = true;
  options.emit_cuda = true;
  std::string cuda;
  nulls_db().execute_script(sql, options, [&](const StatementOutcome& o) {
    CHECK(o.tag.rfind("COMPILE sm_90", 0) == 0);
    cuda = o.cuda;
  });
  return cuda;
}

bool has_top_k(const std::string& sql) {
  return compiled_cuda(sql).find(kTopKKernelName) != std::string::npos;
}

}  // namespace

TEST_CASE("device top-k: ORDER BY over result cells gets tally_top_k and it compiles") {
  if (!cuda::nvrtc_available()) {
    MESSAGE("libnvrtc not found: skipped");
    return;
  }
  const std::string cuda = compiled_cuda(
      "SELECT c_integer, SUM(c_double) AS s, MIN(c_wide) AS w, COUNT(*) AS n FROM nulls "
      "GROUP BY c_integer ORDER BY s DESC NULLS FIRST, w, n, c_integer LIMIT 5");
  CHECK(cuda.find("tally_top_k") != std::string::npos);
  CHECK(cuda.find("compare_order_cell<kOrderF64>(cells.values") != std::string::npos);
  CHECK(cuda.find("compare_order_cell<kOrderI128>(cells.values") != std::string::npos);
  CHECK(cuda.find("compare_order_cell<kOrderI64>(cells.keys") != std::string::npos);
  CHECK(has_top_k("SELECT c_date, COUNT(*) FROM nulls GROUP BY c_date ORDER BY 1 LIMIT ?"));
}

TEST_CASE("device top-k: ORDER BY that needs the evaluated rows gets none") {
  if (!cuda::nvrtc_available()) return;
  const std::string by_key = "SELECT c_integer, COUNT(*) AS n FROM nulls GROUP BY c_integer ";
  CHECK_FALSE(has_top_k(by_key + "ORDER BY n"));  // no LIMIT: every row is returned
  // HAVING the host evaluates (a DOUBLE key); the Finalizer's own HAVING leaves final cells.
  CHECK_FALSE(
      has_top_k("SELECT c_double, COUNT(*) AS n FROM nulls GROUP BY c_double "
                "HAVING c_double > 0.5 ORDER BY n LIMIT 3"));
  CHECK(has_top_k(by_key + "HAVING COUNT(*) > 1 ORDER BY n LIMIT 3"));
  CHECK_FALSE(has_top_k(by_key + "ORDER BY COUNT(*) + 1 LIMIT 3"));
  CHECK_FALSE(has_top_k("SELECT c_varchar, COUNT(*) FROM nulls GROUP BY 1 ORDER BY 1 LIMIT 3"));
  CHECK_FALSE(
      has_top_k("SELECT c_integer, MAX(c_varchar) AS m FROM nulls GROUP BY 1 "
                "ORDER BY m LIMIT 3"));
  CHECK_FALSE(
      has_top_k("SELECT DISTINCT COUNT(*) AS n FROM nulls GROUP BY c_integer "
                "ORDER BY n LIMIT 3"));
}

TEST_CASE("device top-k: order flags hold two bits a key") {
  BoundSelect query;
  query.order_by = {{0, true, false}, {1, false, true}, {2, true, true}};
  CHECK(top_k_order_flags(query) == (0b01u | (0b10u << 2) | (0b11u << 4)));
}

}  // namespace tally
