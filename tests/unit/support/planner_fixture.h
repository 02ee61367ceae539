// A database for tests of the GPU planner and code generator: TPC-H lineitem at SF 0.01 and
// the NULL-heavy table, plus whatever a setup script (run on the CPU) creates; and the
// binding and planning of one SELECT against it, as the executor would do them.
#pragma once

#include <string>

#include "compiler/bind/binder.h"
#include "compiler/codegen/gpu_program.h"
#include "compiler/parse/parser.h"
#include "runtime/compile/gpu_compile.h"
#include "runtime/session/database.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tpch_lineitem.h"

namespace tally::test {

// Never freed: tests share it for the whole run.
inline Database* make_planner_db(const std::string& setup_sql) {
  auto* d = new Database();
  d->put_table(generate_lineitem(0.01, 3));
  d->put_table(generate_nulls_table(5000, 0.2, 3));
  ExecOptions cpu;
  cpu.device = DeviceChoice::Cpu;
  d->execute_script(setup_sql, cpu, [](const StatementOutcome&) {});
  return d;
}

inline BoundSelect bind_first(Database& db, const std::string& sql) {
  auto statements = parse_script(sql);
  const auto& select = std::get<ast::SelectStmt>(statements.at(0).body);
  return bind_select(select, db, statements.at(0).parameter_count);
}

// `limits`: the device planned for (default: the planner's own assumptions).
inline GpuPlan plan_bound(Database& db, const BoundSelect& query, GpuStrategy strategy,
                          const DeviceLimits& limits = DeviceLimits{}) {
  TablePtr table = db.table(query.table);
  GpuCompileOptions options;
  options.strategy = strategy;
  options.limits = limits;
  return plan_for(query, scan_stats(query, *table), table->rows(), options);
}

// The plan and CUDA source the code generator writes for `sql` under `strategy`.
struct GeneratedScan {
  GpuPlan plan;
  std::string source;
};
inline GeneratedScan generate_scan(Database& db, const std::string& sql, GpuStrategy strategy,
                                   const DeviceLimits& limits = DeviceLimits{}) {
  BoundSelect q = bind_first(db, sql);
  GeneratedScan g;
  g.plan = plan_bound(db, q, strategy, limits);
  TablePtr table = db.table(q.table);
  g.source = generate_cuda(q, g.plan, scan_stats(q, *table)).source;
  return g;
}

inline std::string generated_source(Database& db, const std::string& sql, GpuStrategy strategy) {
  return generate_scan(db, sql, strategy).source;
}

}  // namespace tally::test
