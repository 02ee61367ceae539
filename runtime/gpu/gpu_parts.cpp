// GpuEngine::run_part: one part of a table split across engines, to partial states, in two
// steps (start_part queues the kernels, finish_part waits and downloads) so that one thread
// can keep several GPUs busy at once.
#include <fmt/format.h>

#include <chrono>
#include <optional>

#include "compiler/common/elapsed.h"
#include "compiler/common/error.h"
#include "compiler/plan/count_sum_packing.h"
#include "compiler/plan/partial_states.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/gpu/gpu_engine_impl.h"
#include "runtime/gpu/gpu_execution.h"
#include "runtime/gpu/placement.h"
#include "runtime/gpu/row_queue.h"

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

// Everything a part's attempt refers to, kept together until finish_part.
struct GpuPartRun::State {
  State(GpuEngine::Impl& engine, const BoundSelect& query, const Table& table,
        const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings,
        const GpuRunOptions& options)
      : engine(engine),
        lock(engine.mutex),
        query(query),
        table(table),
        parameters(parameters),
        strings(std::move(strings)),
        options(options) {}

  // An attempt dropped with its kernels in flight waits for them: their buffers go back to
  // the pool, and nothing may reuse them while a kernel still writes there.
  ~State() {
    if (!in_flight) return;
    try {
      engine.device.make_current();
      engine.device.synchronize();
    } catch (...) {  // a failing device already reported its error to the caller
    }
  }

  // Compiles `plan` (attempt 1, or a rerun) and queues its kernels.
  void queue_attempt() {
    run.reset();  // refers to c
    if (options.cancelled && options.cancelled())
      throw Error(ErrorKind::Cancelled, "the statement was cancelled");
    c = compile_plan(query, stats, plan, arch, options.plans);
    report_compilation(report, *c, ++attempt);
    run = std::make_unique<GpuExecution>(engine, query, table, parameters, *strings, *c, report);
    if (part) {
      run->use_part(&*part);
      report.placement = fmt::format("device, rows {} to {}", first_row, end_row);
    } else if (options.row_queue != nullptr && attempt > 1) {
      // A rerun goes over the rows the first attempt took; the queue has none left.
      run->stream_rows(first_row, options.row_queue->front_end(), options.batch_rows);
    } else {
      run->stream_rows(first_row, end_row, options.batch_rows, options.row_queue);
    }
    in_flight = true;
    run->queue_kernels();
  }

  GpuEngine::Impl& engine;
  std::unique_lock<std::mutex> lock;
  const BoundSelect& query;
  const Table& table;
  const std::vector<Value>& parameters;
  std::shared_ptr<StringHeap> strings;
  GpuRunOptions options;
  GpuRunReport* report_out = nullptr;
  GpuRunReport report;
  uint64_t first_row = 0, end_row = 0, uploaded_before = 0;
  std::string arch, device;  // the GPU's kind: parts of one kind share a plan
  std::vector<ColumnStats> stats;
  GpuPlan plan;
  std::optional<ScanBatch> part;  // resident columns; none when streamed
  int attempt = 0;
  std::optional<GpuCompilation> c;
  std::unique_ptr<GpuExecution> run;
  bool in_flight = false;
};

GpuPartRun::GpuPartRun(std::unique_ptr<State> state) : state_(std::move(state)) {}
GpuPartRun::GpuPartRun(GpuPartRun&&) noexcept = default;
GpuPartRun& GpuPartRun::operator=(GpuPartRun&&) noexcept = default;
GpuPartRun::~GpuPartRun() = default;

GpuPartRun GpuEngine::start_part(const BoundSelect& query, const Table& table, uint64_t first_row,
                                 uint64_t end_row, const std::vector<Value>& parameters,
                                 std::shared_ptr<StringHeap> strings, const GpuRunOptions& options,
                                 GpuRunReport* report_out, const GpuPartRun* planned) {
  if (first_row % kLaneBlockRows != 0 || first_row > end_row || end_row > table.rows()) {
    throw Error(ErrorKind::Internal, "a table's part must start on a 1024-row block");
  }
  auto s = std::make_unique<GpuPartRun::State>(*impl_, query, table, parameters, std::move(strings),
                                               options);
  impl_->begin_query(options.device_memory_limit);
  s->report_out = report_out;
  s->first_row = first_row;
  s->end_row = end_row;
  s->uploaded_before = impl_->uploaded_bytes;
  s->arch = arch();
  s->device = device_name();
  auto plan_start = std::chrono::steady_clock::now();
  const bool on_host = options.placement == Placement::Host;
  const GpuPartRun::State* other = planned ? planned->state_.get() : nullptr;
  if (other && other->device == s->device && other->arch == s->arch && &other->query == &query) {
    s->stats = other->stats;
    s->plan = other->plan;
  } else {
    s->stats = scan_stats(query, table);
    GpuPlan plan =
        plan_for(query, s->stats, table.rows(), compile_options(options, parameters, table));
    if (plan.projection) {
      throw Error(ErrorKind::Unsupported,
                  "a query without aggregates or GROUP BY is not split across engines");
    }
    if (auto why = why_states_do_not_combine(query, plan))
      throw Error(ErrorKind::Unsupported, *why);
    s->plan = on_host ? with_streamed_scan(plan, true) : with_state_cells(plan);
  }
  s->report.plan_ms = ms_since(plan_start);
  if (!on_host) s->part = resident_part(*impl_, query, table, first_row, end_row);
  s->queue_attempt();
  return GpuPartRun(std::move(s));
}

PartialGroups GpuEngine::finish_part(GpuPartRun& part_run) {
  GpuPartRun::State& s = *part_run.state_;
  impl_->device.make_current();  // the thread may have queued another GPU's part since
  for (;;) {
    const uint32_t status = s.run->wait_kernels();
    s.in_flight = false;
    if (!rerun_after(status, *s.run, s.plan, s.attempt, s.table.rows(), s.report.reruns)) break;
    s.queue_attempt();
  }
  PartialGroups groups = s.run->download_states(s.strings);
  s.report.plan = describe_plan(s.plan) + describe_count_sum_packing(s.plan, s.query, s.stats);
  s.report.source = s.c->program->source;
  s.report.column_bytes = impl_->uploaded_bytes - s.uploaded_before;
  if (s.report_out) *s.report_out = s.report;
  return groups;
}

PartialGroups GpuEngine::run_part(const BoundSelect& query, const Table& table, uint64_t first_row,
                                  uint64_t end_row, const std::vector<Value>& parameters,
                                  std::shared_ptr<StringHeap> strings, const GpuRunOptions& options,
                                  GpuRunReport* report_out) {
  GpuPartRun part_run = start_part(query, table, first_row, end_row, parameters, std::move(strings),
                                   options, report_out);
  return finish_part(part_run);
}

}  // namespace tally
