// GpuEngine::run_part: one part of a table split across engines, to partial states.
#include <chrono>

#include "compiler/common/elapsed.h"
#include "compiler/common/error.h"
#include "compiler/plan/partial_states.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/gpu/gpu_engine_impl.h"
#include "runtime/gpu/gpu_execution.h"
#include "runtime/gpu/placement.h"

namespace tally {

namespace {

// The part's rows of the query's columns, resident on the device, as the Scan reads a batch.
ScanBatch resident_part(GpuEngine::Impl& engine, const BoundSelect& query, const Table& table,
                        uint64_t first_row, uint64_t end_row) {
  ScanBatch part;
  part.first_row = first_row;
  part.rows = end_row - first_row;
  for (const ScanColumn& s : query.scan) {
    const DeviceColumn& d = engine.upload_part(table.columns[s.table_column], first_row, end_row);
    part.data.push_back(d.data.ptr());
    part.validity.push_back(d.validity.empty() ? 0 : d.validity.ptr());
  }
  return part;
}

}  // namespace

PartialGroups GpuEngine::run_part(const BoundSelect& query, const Table& table, uint64_t first_row,
                                  uint64_t end_row, const std::vector<Value>& parameters,
                                  std::shared_ptr<StringHeap> strings, const GpuRunOptions& options,
                                  GpuRunReport* report_out) {
  if (first_row % kLaneBlockRows != 0 || first_row > end_row || end_row > table.rows()) {
    throw Error(ErrorKind::Internal, "a table's part must start on a 1024-row block");
  }
  std::lock_guard lock(impl_->mutex);
  impl_->begin_query(options.device_memory_limit);
  GpuRunReport report;
  const uint64_t uploaded_before = impl_->uploaded_bytes;
  auto plan_start = std::chrono::steady_clock::now();
  const std::vector<ColumnStats> stats = scan_stats(query, table);
  GpuPlan plan = plan_for(query, stats, table.rows(), compile_options(options, parameters, table));
  if (plan.projection) {
    throw Error(ErrorKind::Unsupported,
                "a query without aggregates or GROUP BY is not split across engines");
  }
  if (auto why = why_states_do_not_combine(query, plan)) throw Error(ErrorKind::Unsupported, *why);
  const bool on_host = options.placement == Placement::Host;
  plan = on_host ? with_streamed_scan(plan, true) : with_state_cells(plan);
  report.plan_ms = ms_since(plan_start);
  std::optional<ScanBatch> part;
  if (!on_host) part = resident_part(*impl_, query, table, first_row, end_row);
  for (int attempt = 1;; ++attempt) {
    if (options.cancelled && options.cancelled())
      throw Error(ErrorKind::Cancelled, "the statement was cancelled");
    GpuCompilation c = compile_plan(query, stats, plan, arch(), options.plans);
    report.codegen_ms += c.codegen_ms;
    report.nvrtc_ms += c.source == BinarySource::Nvrtc ? c.binary->compile_ms : 0;
    report.binary_source = c.source;
    report.attempts = attempt;
    GpuExecution run(*impl_, query, table, parameters, *strings, c, report);
    if (on_host) {
      run.stream_rows(first_row, end_row, options.batch_rows);
    } else {
      run.use_part(&*part);
      report.placement = fmt::format("device, rows {} to {}", first_row, end_row);
    }
    if (rerun_after(run.run_kernels(), run, plan, attempt, table.rows())) continue;
    PartialGroups groups = run.download_states(strings);
    report.plan = describe_plan(plan);
    report.source = c.program.source;
    report.column_bytes = impl_->uploaded_bytes - uploaded_before;
    if (report_out) *report_out = report;
    return groups;
  }
}

}  // namespace tally
