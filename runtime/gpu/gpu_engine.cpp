#include "runtime/gpu/gpu_engine.h"

#include <fmt/format.h>

#include <bit>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include "compiler/codegen/lookup_tables.h"
#include "compiler/common/elapsed.h"
#include "compiler/common/error.h"
#include "compiler/common/run_parallel.h"
#include "compiler/eval/evaluator.h"
#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/module.h"
#include "runtime/cuda/stream.h"
#include "runtime/gpu/device_rates_file.h"
#include "runtime/gpu/gpu_engine_impl.h"
#include "runtime/gpu/gpu_projection.h"
#include "runtime/gpu/placement.h"
#include "runtime/gpu/result_top_k.h"
#include "runtime/result/result_builder.h"
#include "templates/tally_status.cuh"

namespace tally {

namespace {

constexpr int kMaxAttempts = 8;

}  // namespace

int128 to_cell(const Value& v, const Type& t) {
  if (v.null) return 0;
  if (t.is_decimal()) return v.d;
  if (t.is_float()) return static_cast<int128>(std::bit_cast<uint64_t>(v.f));
  return v.i;
}

Value from_cell(int128 cell, bool null, const Type& t) {
  if (null) return Value();
  if (t.is_decimal()) return Value::from_decimal(cell);
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
                      std::vector<uint64_t>& args, bool dependent = false,
                      uint64_t shared_bytes = 0, const cuda::Stream* stream = nullptr) {
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

// The messages of compiler/eval/math_functions.cpp.
void raise_math_status_errors(uint32_t status) {
  static const std::pair<uint32_t, const char*> kMessages[] = {
      {kStatusSqrtNegative, "cannot take square root of a negative number"},
      {kStatusLogZero, "cannot take logarithm of zero"},
      {kStatusLogNegative, "cannot take logarithm of a negative number"},
      {kStatusZeroToNegativePower, "zero raised to a negative power is undefined"},
      {kStatusComplexPower,
       "a negative number raised to a non-integer power yields a complex result"}};
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

GpuEngine::GpuEngine() : impl_(std::make_unique<Impl>()) {}
GpuEngine::~GpuEngine() = default;

std::string GpuEngine::device_name() const { return impl_->device.profile().name; }

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

namespace {

// How a result cell becomes a Value: a number, or a string id through `ids` (a dictionary
// code's, or a computed string's domain id).
struct CellDecoder {
  Type type;
  const std::vector<int64_t>* ids = nullptr;
  Value decode(int128 cell, bool null) const {
    if (null || ids == nullptr) return from_cell(cell, null, type);
    if (cell < 0 || cell >= static_cast<int128>(ids->size())) {
      throw Error(ErrorKind::Internal, "the GPU returned a string code outside its column");
    }
    return Value::from_int((*ids)[static_cast<size_t>(cell)]);
  }
};

// A result's raw cells on the host (keys and aggregates group-major, each with its NULL
// flag), read a group at a time as Values: the groups in order, or the `chosen` ones.
struct DownloadedGroups {
  uint64_t count = 0;  // groups to read
  size_t key_count = 0, aggregate_count = 0;
  std::unique_ptr<int128[]> keys, values;
  std::unique_ptr<uint8_t[]> key_nulls, value_nulls;
  std::vector<CellDecoder> key_decoders, value_decoders;
  std::optional<std::vector<uint64_t>> chosen;

  void read(size_t j, Value* key_values, Value* aggregate_values) const {
    const uint64_t g = chosen ? (*chosen)[j] : j;
    for (size_t i = 0; i < key_count; ++i) {
      const uint64_t at = g * key_count + i;
      key_values[i] = key_decoders[i].decode(keys[at], key_nulls[at]);
    }
    for (size_t i = 0; i < aggregate_count; ++i) {
      const uint64_t at = g * aggregate_count + i;
      aggregate_values[i] = value_decoders[i].decode(values[at], value_nulls[at]);
    }
  }
};

// One execution of a compiled program: buffers, launches, and what came back.
class GpuExecution {
 public:
  GpuExecution(GpuEngine::Impl& engine, const BoundSelect& query, const Table& table,
               const std::vector<Value>& parameters, StringHeap& strings, const GpuCompilation& c,
               GpuRunReport& report, uint64_t batch_rows)
      : engine_(engine),
        query_(query),
        table_(table),
        parameters_(parameters),
        strings_(strings),
        c_(c),
        report_(report) {
    if (c_.plan.streamed) streamer_ = make_streamer(engine, query, table, c_.plan, batch_rows);
  }

  // Queues Init, Scan (and the M2 pass) and the Finalizer back to back, then waits once
  // and returns the status word (the caller decides about reruns and errors). Nothing on
  // the host sits between the launches, so each launch's host cost overlaps the kernel
  // before it; a Finalizer that ran over a full table is thrown away with the attempt.
  uint32_t run_kernels() {
    auto start = std::chrono::steady_clock::now();
    allocate_states();
    upload_lookups();
    fill_args();
    report_.upload_ms += ms_since(start);
    const cuda::Module& module = engine_.module_for(c_.binary);
    report_.init_in_scan = scan_sets_states(c_.plan);
    // Every kernel is looked up first: a lookup can load the kernel (lazy module loading),
    // and between a launch and its dependent that host time would leave the GPU idle.
    std::vector<cuda::Kernel> kernels;
    for (const Launch& l : c_.plan.launches)
      kernels.push_back(module.kernel(kernel_name(l.kernel)));
    const uint32_t state_grid = launch_grid(c_.plan.state_slots);
    for (size_t i = 0; i < kernels.size(); ++i) {
      const Launch& l = c_.plan.launches[i];
      const uint32_t grid = l.grid == LaunchGrid::Scan ? c_.plan.grid : state_grid;
      report_.dependent_finalize |= l.dependent;
      if (streamer_ && l.grid == LaunchGrid::Scan) {
        stream_scan(kernels[i]);
        continue;
      }
      // A dependent shares its predecessor's timer: an event recorded between them would
      // hold its launch back until the predecessor ends.
      if (!l.dependent) start_timer(report_ms(l.kernel));
      const uint64_t shared = l.kernel == KernelId::Scan ? scan_shared_bytes(c_.plan) : 0;
      launch_with_args(kernels[i], grid, c_.plan.block, arg_words_, l.dependent, shared);
      const bool last_of_timer = i + 1 == kernels.size() || !c_.plan.launches[i + 1].dependent;
      if (last_of_timer) launches_.back().timer.stop();
    }
    for (TimedLaunch& l : launches_) *l.report_ms += l.timer.elapsed_ms();
    launches_.clear();
    return read_status();
  }

  // `needed`: the rows the query's OFFSET + LIMIT keep (SIZE_MAX: all).
  DownloadedGroups download(size_t needed) {
    auto start = std::chrono::steady_clock::now();
    DownloadedGroups rows = download_groups(needed);
    report_.download_ms += ms_since(start);
    return rows;
  }

  void raise_errors(uint32_t status) const { raise_status_errors(status, engine_.lookup_error); }

 private:
  // A kernel in flight and where its time goes once it has finished.
  struct TimedLaunch {
    cuda::EventTimer timer;
    double* report_ms;
  };
  std::vector<TimedLaunch> launches_;

  // Where a kernel's time goes: the Init, the Finalizer, or the scan passes.
  double& report_ms(KernelId kernel) {
    if (kernel == KernelId::Init) return report_.init_ms;
    if (kernel == KernelId::Finalize) return report_.finalize_ms;
    return report_.scan_ms;
  }

  void start_timer(double& report_ms) {
    TimedLaunch& l = launches_.emplace_back(TimedLaunch{cuda::EventTimer(), &report_ms});
    l.timer.start();
  }

  uint32_t read_status() const { return read_status_word(status_); }

  // A Scan pass over every batch. Init ran on the default stream, which the batches' streams
  // do not wait for, so the device is idle before the first copy.
  void stream_scan(const cuda::Kernel& kernel) {
    engine_.device.synchronize();
    auto start = std::chrono::steady_clock::now();
    const uint64_t shared = scan_shared_bytes(c_.plan);
    streamer_->stream([&](const ScanBatch& batch, const cuda::Stream& stream) {
      batch_ = &batch;
      fill_args();
      batch_ = nullptr;
      launch_with_args(kernel, c_.plan.grid, c_.plan.block, arg_words_, false, shared, &stream);
    });
    fill_args();
    report_.scan_ms += ms_since(start);
    report_.placement = describe_streaming(streamer_->shape());
    engine_.uploaded_bytes += streamer_->copied_bytes();
  }

  void allocate_states() {
    uint64_t slots = c_.plan.state_slots;
    for (const auto& f : c_.plan.layout.fields) {
      fields_.push_back(
          engine_.pool.allocate(slots * field_info(f.kind).bytes, "aggregate states"));
    }
    if (c_.plan.strategy == GpuStrategy::Hash) {
      table_keys_ = engine_.pool.allocate(hash_table_bytes(c_.plan), "hash table keys");
    }
    if (c_.plan.distinct_capacity > 0) {
      // Three words an entry, all zero: every entry empty (templates/tally_distinct.cuh).
      distinct_ = engine_.pool.allocate(c_.plan.distinct_capacity * 24, "the DISTINCT set");
      distinct_.fill_bytes(0);
    }
    status_ = engine_.pool.allocate(kStatusWords * 4, "the status word");
    status_.fill_bytes(0);
    out_count_ = engine_.pool.allocate(8, "the group counter");
    out_count_.fill_bytes(0);
    max_groups_ = std::min<uint64_t>(slots, table_.rows() + 1);
    size_t nk = std::max<size_t>(1, query_.group_keys.size());
    size_t na = std::max<size_t>(1, query_.aggregates.size());
    out_keys_ = engine_.pool.allocate(max_groups_ * nk * 16, "result keys");
    out_key_nulls_ = engine_.pool.allocate(max_groups_ * nk, "result key NULL flags");
    out_values_ = engine_.pool.allocate(max_groups_ * na * 16, "result values");
    out_value_nulls_ = engine_.pool.allocate(max_groups_ * na, "result NULL flags");
  }

  GpuRunInputs inputs() const {
    return {engine_, query_, table_, parameters_, strings_, streamer_ != nullptr, batch_};
  }

  void upload_lookups() { lookups_ = tally::upload_lookups(inputs(), c_.program, lookup_tables_); }

  uint64_t arg_value(const ArgSlot& a) {
    switch (a.kind) {
      case ArgKind::Status:
        return status_.ptr();
      case ArgKind::OutCount:
        return out_count_.ptr();
      case ArgKind::TableKeys:
        return table_keys_.ptr();
      case ArgKind::DistinctSet:
        return distinct_.ptr();
      case ArgKind::StateField:
        return fields_[a.index].ptr();
      case ArgKind::OutKeys:
        return out_keys_.ptr();
      case ArgKind::OutKeyNulls:
        return out_key_nulls_.ptr();
      case ArgKind::OutValues:
        return out_values_.ptr();
      case ArgKind::OutValueNulls:
        return out_value_nulls_.ptr();
      default:
        if (is_input_arg(a.kind)) return input_arg(inputs(), lookups_, a);
        throw Error(ErrorKind::Internal, "an aggregation program asked for a projection buffer");
    }
  }

  void fill_args() {
    arg_words_.clear();
    for (const auto& a : c_.program.args) arg_words_.push_back(arg_value(a));
  }

  // The finals' raw cells, and how to read them. Dictionary strings are interned first,
  // once a code, so that the threads that read groups only read.
  DownloadedGroups download_groups(size_t needed) {
    uint64_t groups = 0;
    out_count_.download(&groups, 8);
    if (groups > max_groups_)
      throw Error(ErrorKind::Internal, "GPU produced more groups than slots");
    DownloadedGroups d;
    d.count = groups;
    const size_t nk = d.key_count = query_.group_keys.size();
    const size_t na = d.aggregate_count = query_.aggregates.size();
    // Left uninitialized: the staged download first-touches them on all cores.
    d.keys.reset(new int128[groups * nk]);
    d.values.reset(new int128[groups * na]);
    d.key_nulls.reset(new uint8_t[groups * nk]);
    d.value_nulls.reset(new uint8_t[groups * na]);
    PinnedStaging& staging = engine_.staging;
    const cuda::Device& device = engine_.device;
    staging.download(device, out_keys_, d.keys.get(), groups * nk * 16);
    staging.download(device, out_key_nulls_, d.key_nulls.get(), groups * nk);
    staging.download(device, out_values_, d.values.get(), groups * na * 16);
    staging.download(device, out_value_nulls_, d.value_nulls.get(), groups * na);
    for (size_t i = 0; i < nk; ++i) {
      d.key_decoders.push_back(decoder(query_.group_keys[i]->type,
                                       c_.plan.keys[i].dictionary_column,
                                       c_.program.key_domains[i]));
    }
    for (size_t i = 0; i < na; ++i) {
      d.value_decoders.push_back(decoder(query_.aggregates[i].type,
                                         c_.plan.layout.aggregate_dictionary[i],
                                         c_.program.aggregate_domains[i]));
    }
    std::vector<bool> cell_keys;
    for (const CellDecoder& k : d.key_decoders) cell_keys.push_back(k.ids == nullptr);
    const ResultCells raw{
        groups, nk, na, d.keys.get(), d.key_nulls.get(), d.values.get(), d.value_nulls.get()};
    // ORDER BY ... LIMIT: only the groups the LIMIT keeps are read.
    d.chosen = first_groups_in_order(query_, raw, cell_keys, needed);
    if (d.chosen) d.count = d.chosen->size();
    return d;
  }

  CellDecoder decoder(const Type& type, int dictionary_column, int domain) {
    if (domain >= 0 && type.is_string()) return {type, &lookup_tables_.domains[domain]};
    if (dictionary_column < 0) return {type, nullptr};
    auto& ids = interned_[dictionary_column];
    if (ids.empty()) {
      const Column& column = *table_.columns[query_.scan[dictionary_column].table_column];
      for (const std::string& s : column.dictionary()) ids.push_back(strings_.intern(s));
    }
    return {type, &ids};
  }

  GpuEngine::Impl& engine_;
  const BoundSelect& query_;
  const Table& table_;
  const std::vector<Value>& parameters_;
  StringHeap& strings_;
  const GpuCompilation& c_;
  GpuRunReport& report_;
  std::vector<cuda::DeviceBuffer> fields_, lookups_;
  LookupTables lookup_tables_;
  cuda::DeviceBuffer table_keys_, distinct_, status_, out_count_;
  std::vector<uint64_t> arg_words_;  // the kernels' parameter block (KernelArgs<N>)
  cuda::DeviceBuffer out_keys_, out_key_nulls_, out_values_, out_value_nulls_;
  uint64_t max_groups_ = 0;
  std::map<int, std::vector<int64_t>> interned_;  // string ids of a scan column's dictionary
  std::unique_ptr<BatchStreamer> streamer_;       // when the plan is streamed
  const ScanBatch* batch_ = nullptr;              // the batch whose Scan is being queued
};

uint64_t grown_capacity(const GpuPlan& plan, uint64_t rows) {
  if (plan.strategy != GpuStrategy::Hash) return std::max<uint64_t>(1024, 2 * rows);
  return plan.slots * 4;
}

}  // namespace

Result GpuEngine::run(const BoundSelect& query, const Table& table,
                      const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings,
                      const GpuRunOptions& options, GpuRunReport* report_out) {
  std::lock_guard lock(impl_->mutex);
  impl_->device.make_current();
  impl_->pool.set_limit(options.device_memory_limit);
  impl_->begin_query();
  impl_->lookup_error.clear();
  GpuRunReport report;
  const uint64_t uploaded_before = impl_->uploaded_bytes;
  auto plan_start = std::chrono::steady_clock::now();
  std::vector<ColumnStats> stats = scan_stats(query, table);
  GpuCompileOptions compile;
  compile.strategy = options.strategy;
  compile.hash_capacity = options.hash_capacity;
  compile.limits = limits();
  compile.arch = arch();
  compile.parameters = &parameters;
  compile.table = &table;
  GpuPlan plan = plan_for(query, stats, table.rows(), compile);
  const bool on_host = place_on_host(*impl_, query, table, options.placement);
  if (on_host) plan = with_streamed_scan(plan, false);
  report.plan_ms = ms_since(plan_start);
  // Rows of every output (hidden ones too) to ORDER BY, OFFSET and LIMIT as the CPU does.
  auto finish = [&](std::vector<std::vector<Value>> rows, const GpuCompilation& c) {
    report.plan = describe_plan(plan);
    report.source = c.program.source;
    auto finish_start = std::chrono::steady_clock::now();
    Result result = finish_result(query, std::move(rows), parameters, strings);
    report.finish_ms += ms_since(finish_start);
    report.column_bytes = impl_->uploaded_bytes - uploaded_before;
    result.device = "gpu: " + impl_->device.profile().name;
    if (report_out) *report_out = report;
    return result;
  };
  // Between steps, never inside one: a kernel in flight runs to its end.
  auto stop_if_cancelled = [&] {
    if (options.cancelled && options.cancelled()) {
      throw Error(ErrorKind::Cancelled, "the statement was cancelled");
    }
  };
  for (int attempt = 1;; ++attempt) {
    stop_if_cancelled();
    GpuCompilation c = compile_plan(query, stats, plan, compile.arch, options.plans);
    stop_if_cancelled();
    report.codegen_ms += c.codegen_ms;
    report.nvrtc_ms += c.source == BinarySource::Nvrtc ? c.binary->compile_ms : 0;
    report.binary_source = c.source;
    report.disk_load_ms += c.disk_load_ms;
    report.attempts = attempt;
    if (plan.projection) {
      const GpuRunInputs in{*impl_, query, table, parameters, *strings};
      if (!on_host) return finish(run_projection(in, c, report), c);
      auto streamer = make_streamer(*impl_, query, table, plan, options.batch_rows);
      auto rows = run_projection_batches(in, *streamer, c, report);
      report.placement = describe_streaming(streamer->shape());
      impl_->uploaded_bytes += streamer->copied_bytes();
      return finish(std::move(rows), c);
    }
    GpuExecution run(*impl_, query, table, parameters, *strings, c, report, options.batch_rows);
    uint32_t status = run.run_kernels();
    // A row's error comes first: a key computed from a failed cast or overflow may well fall
    // outside its domain, and the CPU engine reports the row's error.
    run.raise_errors(status);
    if (status & kStatusKeyOutOfRange) {
      // Keys come from exact column statistics, so this is a planner bug, not bad data.
      throw Error(ErrorKind::Internal,
                  "a GROUP BY key fell outside the domain its statistics gave");
    }
    bool full = (status & (kStatusTableFull | kStatusDistinctFull)) != 0;
    if (full && attempt < kMaxAttempts) {
      // A full table costs a rerun with a larger one, never a wrong answer.
      if (status & kStatusTableFull)
        plan = with_hash_capacity(plan, grown_capacity(plan, table.rows()));
      if (status & kStatusDistinctFull)
        plan = with_distinct_capacity(plan, plan.distinct_capacity * 4);
      continue;
    }
    if (full) throw Error(ErrorKind::Device, "the GPU hash table kept filling up; giving up");
    run.raise_errors(status);
    const DownloadedGroups groups = run.download(rows_needed(query, parameters));
    auto outputs_start = std::chrono::steady_clock::now();
    auto read = [&](size_t g, Value* keys, Value* aggregates) { groups.read(g, keys, aggregates); };
    auto rows = evaluate_group_outputs(query, groups.count, read, parameters, strings.get());
    report.finish_ms = ms_since(outputs_start);
    return finish(std::move(rows), c);
  }
}

}  // namespace tally
