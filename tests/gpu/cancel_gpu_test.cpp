// Cancelling a statement on the GPU (GpuRunOptions::cancelled): asked before each compile
// and launch, it stops the statement with Error(Cancelled), and the engine runs the next
// statement as usual.
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "compiler/bind/binder.h"
#include "compiler/common/error.h"
#include "compiler/parse/parser.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/session/database.h"
#include "tests/gpu/gpu_support.h"
#include "tools/data/paper_tables.h"

namespace tally {
namespace {

// The kind of Error that running `query` with `options` throws (Internal when none).
ErrorKind run_kind(GpuEngine& engine, const BoundSelect& query, const Table& table,
                   const GpuRunOptions& options) {
  try {
    engine.run(query, table, {}, std::make_shared<StringHeap>(), options);
  } catch (const Error& e) {
    return e.kind();
  }
  return ErrorKind::Internal;
}

}  // namespace

TEST_CASE("gpu cancel: before the compile or before the launch - then the next statement runs") {
  GpuEngine engine;
  Database db;
  db.put_table(generate_orders_table(4000, 50, 1));
  auto statements = parse_script("SELECT zip, COUNT(*) AS n FROM orders GROUP BY zip");
  BoundSelect query = bind_select(std::get<ast::SelectStmt>(statements[0].body), db, 0);
  const Table& table = *db.table("orders");
  for (int stop_at : {1, 2}) {  // the check before the compile, the one before the launch
    int asked = 0;
    GpuRunOptions options;
    options.cancelled = [&] { return ++asked == stop_at; };
    CHECK(run_kind(engine, query, table, options) == ErrorKind::Cancelled);
    CHECK(asked == stop_at);
  }
  Result result = engine.run(query, table, {}, std::make_shared<StringHeap>(), GpuRunOptions{});
  int64_t rows = 0;
  for (const auto& row : result.rows) rows += row[1].i;
  CHECK(rows == 4000);
}

}  // namespace tally
