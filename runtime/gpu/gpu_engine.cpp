#include "runtime/gpu/gpu_engine.h"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cstring>
#include <future>
#include <map>
#include <memory>
#include <optional>

#include "compiler/codegen/lookup_tables.h"
#include "compiler/common/elapsed.h"
#include "compiler/common/error.h"
#include "compiler/common/run_parallel.h"
#include "compiler/eval/evaluator.h"
#include "compiler/plan/count_sum_packing.h"
#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/module.h"
#include "runtime/cuda/stream.h"
#include "runtime/gpu/device_rates_file.h"
#include "runtime/gpu/gpu_engine_impl.h"
#include "runtime/gpu/gpu_execution.h"
#include "runtime/gpu/gpu_projection.h"
#include "runtime/gpu/placement.h"
#include "runtime/gpu/result_top_k.h"
#include "runtime/result/result_builder.h"
#include "templates/tally_status.cuh"

namespace tally {

int128 to_cell(const Value& v, const Type& t) {
  if (v.null) return 0;
  if (t.is_exact128()) return v.d;
  if (t.is_float()) return static_cast<int128>(std::bit_cast<uint64_t>(v.f));
  return v.i;
}

Value from_cell(int128 cell, bool null, const Type& t) {
  if (null) return Value();
  if (t.is_exact128()) return Value::from_decimal(cell);
  if (t.is_float()) return Value::from_double(std::bit_cast<double>(static_cast<uint64_t>(cell)));
  return Value::from_int(static_cast<int64_t>(cell));
}

uint32_t launch_grid(uint64_t items) {
  return static_cast<uint32_t>(std::clamp<uint64_t>((items + 255) / 256, 1, 8192));
}

Value decode_cell(const GpuRunInputs& in, int128 cell, bool null, const Type& type,
                  int dictionary_column) {
  if (!null && dictionary_column >= 0) {
    const Column& column = *in.table.columns[in.query.scan[dictionary_column].table_column];
    if (cell < 0 || cell >= static_cast<int128>(column.dictionary().size())) {
      throw Error(ErrorKind::Internal, "the GPU returned a dictionary code outside its column");
    }
    return Value::from_int(in.strings.intern(column.dictionary()[static_cast<size_t>(cell)]));
  }
  return from_cell(cell, null, type);
}

void launch_with_args(const cuda::Kernel& kernel, uint32_t grid, uint32_t block,
                      std::vector<uint64_t>& args, bool dependent, uint64_t shared_bytes,
                      const cuda::Stream* stream) {
  cuda::LaunchConfig config;
  config.stream = stream;
  config.grid = grid;
  config.block = block;
  config.dependent = dependent;
  config.shared_bytes = static_cast<uint32_t>(shared_bytes);
  // The kernel's one parameter is the whole argument block (KernelArgs<N>), copied by
  // the driver at launch.
  void* params[] = {args.data(), nullptr};
  cuda::launch_kernel(kernel, config, params);
}

float launch_timed(const cuda::Kernel& kernel, uint32_t grid, uint32_t block,
                   std::vector<uint64_t>& args) {
  cuda::EventTimer timer;
  timer.start();
  launch_with_args(kernel, grid, block, args);
  timer.stop();
  return timer.elapsed_ms();
}

std::vector<cuda::DeviceBuffer> upload_lookups(const GpuRunInputs& in, const GpuProgram& program,
                                               LookupTables& tables) {
  auto dictionary = [&](int scan_column) -> const std::vector<std::string>& {
    return in.table.columns[in.query.scan[scan_column].table_column]->dictionary();
  };
  tables = build_lookup_tables(program, in.query, dictionary, in.parameters, in.strings);
  if (in.engine.lookup_error.empty()) in.engine.lookup_error = tables.error;
  std::vector<cuda::DeviceBuffer> buffers;
  for (size_t l = 0; l < program.lookups.size(); ++l) {
    const LookupTable& t = tables.tables[l];
    std::vector<int128> values;
    for (const Value& v : t.values) values.push_back(to_cell(v, program.lookups[l].expr->type));
    auto& v =
        buffers.emplace_back(in.engine.pool.allocate(values.size() * 16, "a dictionary lookup"));
    v.upload(values.data(), values.size() * 16);
    auto& n = buffers.emplace_back(in.engine.pool.allocate(t.states.size(), "a dictionary lookup"));
    n.upload(t.states.data(), t.states.size());
  }
  return buffers;
}

namespace {

uint64_t param_word(const GpuRunInputs& in, int index, int word) {
  const Value& v = in.parameters.at(static_cast<size_t>(index));
  if (word == 2) return v.null ? 1 : 0;
  int128 cell = to_cell(v, in.query.parameter_types[index]);
  auto u = static_cast<unsigned __int128>(cell);
  return word == 0 ? static_cast<uint64_t>(u) : static_cast<uint64_t>(u >> 64);
}

}  // namespace

bool is_input_arg(ArgKind kind) {
  switch (kind) {
    case ArgKind::Rows:
    case ArgKind::ColumnData:
    case ArgKind::ColumnValidity:
    case ArgKind::LookupValues:
    case ArgKind::LookupNulls:
    case ArgKind::ParamWord:
      return true;
    default:
      return false;
  }
}

uint64_t input_arg(const GpuRunInputs& in, const std::vector<cuda::DeviceBuffer>& lookups,
                   const ArgSlot& a) {
  switch (a.kind) {
    case ArgKind::Rows:
      return in.batch ? in.batch->rows : in.table.rows();
    case ArgKind::ColumnData:
    case ArgKind::ColumnValidity: {
      if (in.streamed) {
        if (!in.batch) return 0;
        const auto& words = a.kind == ArgKind::ColumnData ? in.batch->data : in.batch->validity;
        return words.at(static_cast<size_t>(a.index));
      }
      const DeviceColumn& d =
          in.engine.upload_column(in.table.columns[in.query.scan[a.index].table_column]);
      return a.kind == ArgKind::ColumnData ? d.data.ptr() : d.validity.ptr();
    }
    case ArgKind::LookupValues:
      return lookups[2 * a.index].ptr();
    case ArgKind::LookupNulls:
      return lookups[2 * a.index + 1].ptr();
    case ArgKind::ParamWord:
      return param_word(in, a.index, a.word);
    default:
      throw Error(ErrorKind::Internal, "not an input argument");
  }
}

uint32_t read_status_word(const cuda::DeviceBuffer& status) {
  uint32_t word = 0;
  status.download(&word, sizeof word);
  return word;
}

// The messages of compiler/eval/math_functions.cpp and of the moment finals
// (compiler/functions/moments.cpp).
void raise_math_status_errors(uint32_t status) {
  static const std::pair<uint32_t, const char*> kMessages[] = {
      {kStatusSqrtNegative, "cannot take square root of a negative number"},
      {kStatusLogZero, "cannot take logarithm of zero"},
      {kStatusLogNegative, "cannot take logarithm of a negative number"},
      {kStatusZeroToNegativePower, "zero raised to a negative power is undefined"},
      {kStatusComplexPower,
       "a negative number raised to a non-integer power yields a complex result"},
      {kStatusSkewnessOutOfRange, "SKEWNESS is out of range"},
      {kStatusKurtosisOutOfRange, "KURTOSIS is out of range"},
      {kStatusTimestampOutOfRange, "timestamp out of range"},
      {kStatusHugeintOverflow, "hugeint out of range"}};
  for (const auto& [bit, message] : kMessages) {
    if (status & bit) throw Error(ErrorKind::Execution, message);
  }
}

void raise_status_errors(uint32_t status, const std::string& lookup_error) {
  if (status & kStatusDivisionByZero) throw Error(ErrorKind::Execution, "division by zero");
  if (status & kStatusIntegerOverflow) throw Error(ErrorKind::Execution, "integer out of range");
  if (status & kStatusSmallintOverflow) throw Error(ErrorKind::Execution, "smallint out of range");
  if (status & kStatusBigintOverflow) throw Error(ErrorKind::Execution, "bigint out of range");
  if (status & kStatusNumericOverflow) {
    throw Error(ErrorKind::Execution, "numeric overflow: a DECIMAL result exceeds its precision");
  }
  if (status & kStatusLookupError) throw Error(ErrorKind::Execution, lookup_error);
  raise_math_status_errors(status);
}

GpuEngine::GpuEngine(int ordinal) : impl_(std::make_unique<Impl>(ordinal)) {}
GpuEngine::~GpuEngine() = default;

std::string GpuEngine::device_name() const { return impl_->device.profile().name; }

bool GpuEngine::warm_up() noexcept {
  try {
    impl_->device.make_current();
    impl_->interpreter.ready(impl_->device, false);
    impl_->transpose.ready(impl_->device);  // the first upload of a bit-packed column needs it
  } catch (...) {  // InterpreterKernels keeps its own errors; the device's recur at first use
  }
  return impl_->interpreter.loaded();
}

bool GpuEngine::interpreter_loaded() const { return impl_->interpreter.loaded(); }

GpuEngine::Residency GpuEngine::residency() const {
  std::lock_guard lock(impl_->mutex);
  return {impl_->columns.size(), impl_->modules.size()};
}

uint64_t GpuEngine::memory_held() const { return impl_->pool.held_bytes(); }
uint64_t GpuEngine::memory_cached() const { return impl_->pool.cached_bytes(); }

std::string GpuEngine::arch() const { return impl_->device.profile().arch(); }

DeviceLimits device_limits(const cuda::DeviceProfile& p) {
  DeviceLimits limits = p.target().limits;
  limits.rates = device_strategy_rates(p.name);
  return limits;
}

DeviceLimits GpuEngine::limits() const { return device_limits(impl_->device.profile()); }

GpuCompileOptions GpuEngine::compile_options(const GpuRunOptions& options,
                                             const std::vector<Value>& parameters,
                                             const Table& table) const {
  GpuCompileOptions compile;
  compile.strategy = options.strategy;
  compile.hash_capacity = options.hash_capacity;
  compile.limits = limits();
  if (options.plan_l2_bytes > 0) compile.limits.l2_bytes = options.plan_l2_bytes;
  compile.arch = arch();
  compile.parameters = &parameters;
  compile.table = &table;
  return compile;
}

std::optional<Result> GpuEngine::run_on_interpreter(
    const BoundSelect& query, const Table& table, const std::vector<ColumnStats>& stats,
    const GpuPlan& plan, const std::vector<Value>& parameters,
    const std::shared_ptr<StringHeap>& strings, const GpuRunOptions& options,
    std::future<double>& columns_ahead, GpuRunReport& report,
    std::optional<GpuCompilation>& found) {
  const bool always = options.interpreted == InterpretedTier::Always;
  BackgroundCompiler* compiler = options.kernel_tiers.compiler;
  std::optional<GpuCompilation> unrolled;
  if (!always) {
    // Only a statement whose own kernels must still be compiled, which then compile in the
    // background for its next run.
    if (compiler == nullptr) return std::nullopt;
    if (options.plans && options.plans->contains(plan_fingerprint(plan, stats, arch()))) {
      return std::nullopt;
    }
    unrolled = find_compiled(query, stats, plan, arch());
    if (unrolled->binary || compiler->failed(unrolled->program->source, arch())) {
      if (options.plans == nullptr && unrolled->binary) found = std::move(unrolled);
      return std::nullopt;
    }
  }
  std::string why;
  std::optional<Result> result =
      run_interpreted(*impl_, query, table, stats, parameters, strings, always,
                      options.hash_capacity, columns_ahead, report, &why);
  if (!result) {
    report.not_interpreted = why;
    return std::nullopt;
  }
  if (unrolled) compiler->enqueue(unrolled->program->source, arch());
  return result;
}

Result GpuEngine::run(const BoundSelect& query, const Table& table,
                      const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings,
                      const GpuRunOptions& options, GpuRunReport* report_out) {
  std::lock_guard lock(impl_->mutex);
  impl_->begin_query(options.device_memory_limit);
  GpuRunReport report;
  const uint64_t uploaded_before = impl_->uploaded_bytes;
  auto plan_start = std::chrono::steady_clock::now();
  std::vector<ColumnStats> stats = scan_stats(query, table);
  FirstPlan first = plan_first_attempt(query, table, stats, parameters, options);
  GpuPlan plan = std::move(first.plan);
  const bool on_host = first.on_host;
  report.plan_ms = ms_since(plan_start);
  std::future<double> columns_ahead;  // waited for before the first use of the engine
  if (!on_host) columns_ahead = impl_->upload_ahead(query, table);
  // Rows of every output (hidden ones too) to ORDER BY, OFFSET and LIMIT as the CPU does.
  // `rows`: ResultRows from the groups' cells, or a projection's rows of Values.
  // The result as run() returns it, the report filled in.
  auto deliver = [&](Result result) {
    report.column_bytes = impl_->uploaded_bytes - uploaded_before;
    result.device = "gpu: " + impl_->device.profile().name;
    if (report_out) *report_out = report;
    return result;
  };
  auto finish = [&](auto rows, const GpuCompilation& c) {
    if (options.describe) {
      report.plan = describe_plan(plan) + describe_count_sum_packing(plan, query, stats);
      report.source = c.program->source;
    }
    auto finish_start = std::chrono::steady_clock::now();
    Result result = finish_result(query, std::move(rows), parameters, strings);
    report.finish_ms += ms_since(finish_start);
    return deliver(std::move(result));
  };
  // Between steps, never inside one: a kernel in flight runs to its end.
  auto stop_if_cancelled = [&] {
    if (options.cancelled && options.cancelled()) {
      throw Error(ErrorKind::Cancelled, "the statement was cancelled");
    }
  };
  std::optional<GpuCompilation> found;  // the kernels, found in a cache while asking
  if (options.interpreted != InterpretedTier::Off && !on_host && !plan.projection) {
    std::optional<Result> interpreted = run_on_interpreter(
        query, table, stats, plan, parameters, strings, options, columns_ahead, report, found);
    if (interpreted) {
      if (options.describe) report.plan = "interpreted tier: " + describe_plan(plan);
      return deliver(std::move(*interpreted));
    }
  }
  for (int attempt = 1;; ++attempt) {
    stop_if_cancelled();
    GpuCompilation c =
        attempt == 1 && found
            ? std::move(*found)
            : compile_in_tiers(query, stats, plan, arch(), options.plans, options.kernel_tiers);
    if (columns_ahead.valid()) {
      auto wait_start = std::chrono::steady_clock::now();
      report.upload_ms += columns_ahead.get();
      report.upload_wait_ms = ms_since(wait_start);
      report.upload_ahead = true;
    }
    stop_if_cancelled();
    report_compilation(report, c, attempt);
    if (plan.projection) {
      const GpuRunInputs in{*impl_, query, table, parameters, *strings};
      if (!on_host) return finish(run_projection(in, c, report), c);
      auto streamer = make_streamer(*impl_, query, table, plan, options.batch_rows);
      auto rows = run_projection_batches(in, *streamer, c, report);
      report.placement = describe_streaming(streamer->shape());
      impl_->uploaded_bytes += streamer->copied_bytes();
      return finish(std::move(rows), c);
    }
    GpuExecution run(*impl_, query, table, parameters, *strings, c, report);
    if (on_host) run.stream_rows(0, table.rows(), options.batch_rows);
    const uint32_t status = run.run_kernels();
    if (rerun_after(status, run, plan, attempt, table.rows(), report.reruns)) continue;
    const DownloadedGroups groups = run.download(rows_needed(query, parameters));
    auto outputs_start = std::chrono::steady_clock::now();
    auto read = [&](size_t g, Value* keys, Value* aggregates) { groups.read(g, keys, aggregates); };
    auto rows = evaluate_group_outputs(query, groups.count, read, parameters, strings.get(),
                                       c.plan.having_on_device());
    report.finish_ms = ms_since(outputs_start);
    return finish(std::move(rows), c);
  }
}

}  // namespace tally
