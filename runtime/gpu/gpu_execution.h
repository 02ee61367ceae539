// One execution of a compiled aggregation program on the GPU engine: its buffers, its launches
// (the Scan once, or once per streamed batch), and what comes back — the groups' finals, or
// under GpuPlan::emit_states their state cells. Shared by a whole run (gpu_engine.cpp) and a
// part of a table split across engines (gpu_parts.cpp).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "compiler/codegen/lookup_tables.h"
#include "compiler/codegen/top_k_kernel.h"
#include "compiler/common/elapsed.h"
#include "compiler/common/error.h"
#include "compiler/plan/partial_states.h"
#include "runtime/cuda/stream.h"
#include "runtime/gpu/device_top_k.h"
#include "runtime/gpu/gpu_engine_impl.h"
#include "runtime/gpu/placement.h"
#include "runtime/gpu/result_top_k.h"
#include "runtime/gpu/state_cells.h"
#include "templates/tally_status.cuh"

namespace tally {

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
               GpuRunReport& report)
      : engine_(engine),
        query_(query),
        table_(table),
        parameters_(parameters),
        strings_(strings),
        c_(c),
        report_(report) {}

  // Reads rows [first_row, end_row) from their host-resident copies, streamed in batches
  // (`batch_rows` > 0 forces the size), or those of them `queue` hands out.
  void stream_rows(uint64_t first_row, uint64_t end_row, uint64_t batch_rows,
                   RowQueue* queue = nullptr) {
    streamer_ = make_streamer(engine_, query_, table_, c_.plan, batch_rows, first_row, end_row);
    streamer_->take_from(queue);
  }

  // Queues Init, Scan (and the M2 pass) and the Finalizer back to back, then waits once
  // and returns the status word (the caller decides about reruns and errors). Nothing on
  // the host sits between the launches, so each launch's host cost overlaps the kernel
  // before it; a Finalizer that ran over a full table is thrown away with the attempt.
  uint32_t run_kernels() {
    queue_kernels();
    return wait_kernels();
  }

  // run_kernels in two steps, so that one thread can keep several GPUs busy: queue_kernels
  // returns once every launch is queued (a streamed Scan's batches have all been queued),
  // wait_kernels waits for them and returns the status word.
  void queue_kernels() {
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
        stream_scan(kernels[i], l.kernel);
        continue;
      }
      // A dependent shares its predecessor's timer: an event recorded between them would
      // hold its launch back until the predecessor ends.
      if (!l.dependent) start_timer(report_ms(l.kernel));
      if (l.kernel == KernelId::Scan) {
        launch_scan(kernels[i], nullptr, l.kernel);
      } else {
        launch_with_args(kernels[i], grid, c_.plan.block, arg_words_, l.dependent);
      }
      const bool last_of_timer = i + 1 == kernels.size() || !c_.plan.launches[i + 1].dependent;
      if (last_of_timer) launches_.back().timer.stop();
    }
    queue_readback();
  }

  uint32_t wait_kernels() {
    // With the results queued behind the kernels, one wait covers both; the timers' events
    // are then already done (a wait for them first, then one for the copy, woke twice).
    if (readback_) cuda::Stream::legacy_default().synchronize();
    for (TimedLaunch& l : launches_) {
      *l.report_ms += l.timer.elapsed_ms();
      engine_.spare_timers.push_back(std::move(l.timer));
    }
    launches_.clear();
    if (!readback_) return read_status();
    uint32_t status = 0;
    std::memcpy(&status, readback_at(readback_->status), sizeof status);
    return status;
  }

  // `needed`: the rows the query's OFFSET + LIMIT keep (SIZE_MAX: all).
  // Reads the columns of rows [part.first_row, + part.rows) from `part` (resident on the
  // device), not the table's: one part of a table split across engines.
  void use_part(const ScanBatch* part) { part_ = part; }

  // Under GpuPlan::emit_states: the groups' keys and state cells as the CPU engine's partial
  // states, their strings in `heap`.
  PartialGroups download_states(std::shared_ptr<StringHeap> heap) {
    auto start = std::chrono::steady_clock::now();
    const uint64_t groups = group_count();
    const size_t nk = query_.group_keys.size();
    const uint64_t cells = state_cell_count(c_.plan);
    std::vector<int128> keys(groups * nk), values(groups * cells);
    std::vector<uint8_t> key_nulls(groups * nk);
    fetch_result(out_keys_, &Readback::keys, keys.data(), keys.size() * 16, false);
    fetch_result(out_key_nulls_, &Readback::key_nulls, key_nulls.data(), key_nulls.size(), false);
    fetch_result(out_values_, &Readback::values, values.data(), values.size() * 16, false);
    report_.download_ms += ms_since(start);
    std::vector<CellDecoder> key_decoders;
    for (size_t i = 0; i < nk; ++i) key_decoders.push_back(key_decoder(i));
    std::vector<std::vector<Value>> key_values(groups, std::vector<Value>(nk));
    for (uint64_t g = 0; g < groups; ++g) {
      for (size_t i = 0; i < nk; ++i)
        key_values[g][i] = key_decoders[i].decode(keys[g * nk + i], key_nulls[g * nk + i]);
    }
    auto string_id = [&](size_t a, int64_t code) {
      return aggregate_decoder(a).decode(code, false).i;
    };
    return partial_groups_from_cells(query_, c_.plan, std::move(key_values), values.data(),
                                     std::move(heap), string_id);
  }

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
    TimedLaunch& l = launches_.emplace_back(TimedLaunch{engine_.take_timer(), &report_ms});
    l.timer.start();
  }

  uint32_t read_status() const { return read_status_word(status_); }

  // Where each result sits in a small result's buffer and in the engine's pinned readback
  // buffer (byte offsets; the status is kStatusWords words; `bytes` in all).
  struct Readback {
    size_t count = 0, status = 8, keys = 32, key_nulls = 0, values = 0, value_nulls = 0, bytes = 0;
  };
  std::optional<Readback> small_result_;  // allocate_states' layout of results_
  std::optional<Readback> readback_;      // set once the copy is queued

  Readback result_layout() const {
    const size_t nk = query_.group_keys.size();
    const uint64_t cells = output_value_cells(c_.plan, query_.aggregates.size());
    Readback r;
    r.values = r.keys + max_groups_ * nk * 16;
    r.key_nulls = r.values + max_groups_ * cells * 16;
    r.value_nulls = r.key_nulls + max_groups_ * nk;
    r.bytes = r.value_nulls + max_groups_ * cells;
    return r;
  }
  // A part's states (emit_states) up to 4 MiB; a final result up to 64 KiB, which one copy
  // moves in about a microsecond even when the groups are fewer than the slots.
  static constexpr size_t kMaxReadbackBytes = size_t{4} << 20;
  static constexpr size_t kSmallReadbackBytes = size_t{64} << 10;

  const uint8_t* readback_at(size_t offset) const {
    return static_cast<const uint8_t*>(engine_.readback.data()) + offset;
  }

  // `bytes` of a result buffer into `host`: from the pinned readback copy (at its field `at`)
  // when one was queued, else downloaded now; `staged`: through the pinned staging buffers
  // on all cores (large results).
  void fetch_result(const cuda::DeviceBuffer& buffer, size_t Readback::*at, void* host,
                    size_t bytes, bool staged) const {
    if (readback_) {
      std::memcpy(host, readback_at((*readback_).*at), bytes);
    } else if (staged) {
      engine_.staging.download(engine_.device, buffer, host, bytes);
    } else {
      buffer.download(host, bytes);
    }
  }

  // With few groups: the status word, the group count and every cell the Finalizer may
  // write, copied behind the kernels into pinned memory in one copy, so that the results come
  // back in one wait instead of a round trip each (a small Q1's six round trips took 0.08 ms).
  // Many groups are downloaded once their count is known.
  void queue_readback() {
    if (!small_result_) return;
    const Readback& r = *small_result_;
    if (engine_.readback.size() < r.bytes) {
      engine_.readback = cuda::PinnedBuffer(kMaxReadbackBytes, "a part's results");
    }
    results_.download(engine_.readback.data(), r.bytes, 0, &cuda::Stream::legacy_default());
    readback_ = r;
  }

  // A Scan pass over every batch. Init ran on the default stream, which the batches' streams
  // do not wait for, so the device is idle before the first copy.
  // The Scan over the rows the arguments name: once, or once per slice of a sliced Block
  // plan (each pass merging its slice's rows; GpuPlan::scan_slices). The second pass of
  // DOUBLE variances reads every row once, its table (if any) in static shared memory.
  void launch_scan(const cuda::Kernel& kernel, const cuda::Stream* stream, KernelId id) {
    if (id == KernelId::ScanM2) {
      launch_with_args(kernel, c_.plan.grid, c_.plan.block, arg_words_, false, 0, stream);
      return;
    }
    const uint64_t shared = scan_shared_bytes(c_.plan);
    for (uint32_t p = 0; p < c_.plan.scan_slices; ++p) {
      set_slice(p);
      launch_with_args(kernel, c_.plan.grid, c_.plan.block, arg_words_, false, shared, stream);
    }
    set_slice(0);
  }

  void set_slice(uint32_t p) {
    slice_first_ = uint64_t{p} * c_.plan.slice_slots;
    for (size_t i = 0; i < c_.program->args.size(); ++i) {
      if (c_.program->args[i].kind == ArgKind::SliceFirst) arg_words_[i] = slice_first_;
    }
  }

  void stream_scan(const cuda::Kernel& kernel, KernelId id) {
    engine_.device.synchronize();
    auto start = std::chrono::steady_clock::now();
    streamer_->stream([&](const ScanBatch& batch, const cuda::Stream& stream) {
      batch_ = &batch;
      fill_args();
      batch_ = nullptr;
      launch_scan(kernel, &stream, id);
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
    // Set to 0 by the Init kernel, as the fields are.
    const auto& args = c_.program->args;
    auto takes = [&](ArgKind kind) {
      return std::any_of(args.begin(), args.end(),
                         [&](const ArgSlot& a) { return a.kind == kind; });
    };
    if (takes(ArgKind::PackedCounts)) {
      packed_counts_ = engine_.pool.allocate(slots * 8, "packed row counts");
    }
    if (takes(ArgKind::PackCarries)) {
      pack_carries_ = engine_.pool.allocate(slots * 4, "the packed sums' carries");
    }
    if (c_.plan.distinct_capacity > 0) {
      // Three words an entry, all zero: every entry empty (templates/tally_distinct.cuh).
      distinct_ = engine_.pool.allocate(c_.plan.distinct_capacity * 24, "the DISTINCT set");
      distinct_.fill_bytes(0);
    }
    if (c_.plan.distinct_bitmap_words > 0) {
      distinct_bitmap_ =
          engine_.pool.allocate(c_.plan.distinct_bitmap_words * 4, "the DISTINCT bitmaps");
      distinct_bitmap_.fill_bytes(0);  // no value seen
    }
    // A row makes at most one group, or one a grouping set when all sets run in one pass.
    const uint64_t sets = std::max<uint64_t>(1, query_.grouping_sets.size());
    max_groups_ = std::min<uint64_t>(slots, table_.rows() * sets + 1);
    const Readback r = result_layout();
    if (r.bytes <= (c_.plan.emit_states ? kMaxReadbackBytes : kSmallReadbackBytes)) {
      // Few groups: every result in one buffer, the count and status zeroed by one fill and
      // read back by one copy (six allocations, two fills and six copies before).
      results_ = engine_.pool.allocate(r.bytes, "the result");
      results_.view(0, r.keys).fill_bytes(0);
      out_count_ = results_.view(r.count, 8);
      status_ = results_.view(r.status, kStatusWords * 4);
      out_keys_ = results_.view(r.keys, r.values - r.keys);
      out_values_ = results_.view(r.values, r.key_nulls - r.values);
      out_key_nulls_ = results_.view(r.key_nulls, r.value_nulls - r.key_nulls);
      out_value_nulls_ = results_.view(r.value_nulls, r.bytes - r.value_nulls);
      small_result_ = r;
      return;
    }
    status_ = engine_.pool.allocate(kStatusWords * 4, "the status word");
    status_.fill_bytes(0);
    out_count_ = engine_.pool.allocate(8, "the group counter");
    out_count_.fill_bytes(0);
    size_t nk = std::max<size_t>(1, query_.group_keys.size());
    const size_t na = output_value_cells(c_.plan, query_.aggregates.size());
    out_keys_ = engine_.pool.allocate(max_groups_ * nk * 16, "result keys");
    out_key_nulls_ = engine_.pool.allocate(max_groups_ * nk, "result key NULL flags");
    out_values_ = engine_.pool.allocate(max_groups_ * na * 16, "result values");
    out_value_nulls_ = engine_.pool.allocate(max_groups_ * na, "result NULL flags");
  }

  GpuRunInputs inputs() const {
    const bool streamed = streamer_ != nullptr || part_ != nullptr;
    return {engine_, query_, table_, parameters_, strings_, streamed, batch_ ? batch_ : part_};
  }

  void upload_lookups() { lookups_ = tally::upload_lookups(inputs(), *c_.program, lookup_tables_); }

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
      case ArgKind::DistinctBitmap:
        return distinct_bitmap_.ptr();
      case ArgKind::SliceFirst:
        return slice_first_;
      case ArgKind::StateField:
        return fields_[a.index].ptr();
      case ArgKind::PackedCounts:
        return packed_counts_.ptr();
      case ArgKind::PackCarries:
        return pack_carries_.ptr();
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
    for (const auto& a : c_.program->args) arg_words_.push_back(arg_value(a));
  }

  // The finals' raw cells, and how to read them. Dictionary strings are interned first,
  // once a code, so that the threads that read groups only read.
  DownloadedGroups download_groups(size_t needed) {
    const uint64_t groups = group_count();
    DownloadedGroups d;
    d.count = groups;
    const size_t nk = d.key_count = query_.group_keys.size();
    const size_t na = d.aggregate_count = query_.aggregates.size();
    for (size_t i = 0; i < nk; ++i) d.key_decoders.push_back(key_decoder(i));
    for (size_t i = 0; i < na; ++i) d.value_decoders.push_back(aggregate_decoder(i));
    // ORDER BY ... LIMIT on the device: only the rows the LIMIT keeps come back.
    if (c_.program->top_k && needed >= 1 && needed <= kDeviceTopKMax && needed < groups) {
      const DeviceResultCells cells{out_keys_, out_key_nulls_, out_values_, out_value_nulls_, nk,
                                    na,        groups};
      ChosenCells chosen = device_top_k(engine_.pool, engine_.module_for(c_.binary), cells, needed,
                                        top_k_order_flags(query_));
      d.count = chosen.count;
      d.keys = std::move(chosen.keys);
      d.key_nulls = std::move(chosen.key_nulls);
      d.values = std::move(chosen.values);
      d.value_nulls = std::move(chosen.value_nulls);
      return d;
    }
    // Left uninitialized: the staged download first-touches them on all cores.
    d.keys.reset(new int128[groups * nk]);
    d.values.reset(new int128[groups * na]);
    d.key_nulls.reset(new uint8_t[groups * nk]);
    d.value_nulls.reset(new uint8_t[groups * na]);
    fetch_result(out_keys_, &Readback::keys, d.keys.get(), groups * nk * 16, true);
    fetch_result(out_key_nulls_, &Readback::key_nulls, d.key_nulls.get(), groups * nk, true);
    fetch_result(out_values_, &Readback::values, d.values.get(), groups * na * 16, true);
    fetch_result(out_value_nulls_, &Readback::value_nulls, d.value_nulls.get(), groups * na, true);
    const ResultCells raw{
        groups, nk, na, d.keys.get(), d.key_nulls.get(), d.values.get(), d.value_nulls.get()};
    // ORDER BY ... LIMIT: only the groups the LIMIT keeps are read.
    d.chosen = first_groups_in_order(query_, c_.plan, raw, needed);
    if (d.chosen) d.count = d.chosen->size();
    return d;
  }

  // The groups the Finalizer wrote (from the readback copy when one was queued).
  uint64_t group_count() const {
    uint64_t groups = 0;
    fetch_result(out_count_, &Readback::count, &groups, 8, false);
    if (groups > max_groups_)
      throw Error(ErrorKind::Internal, "GPU produced more groups than slots");
    return groups;
  }

  CellDecoder key_decoder(size_t key) {
    return decoder(query_.group_keys[key]->type, c_.plan.keys[key].dictionary_column,
                   c_.program->key_domains[key]);
  }

  // A final's cell, or under emit_states a MIN/MAX state's string code.
  CellDecoder aggregate_decoder(size_t aggregate) {
    return decoder(query_.aggregates[aggregate].type,
                   c_.plan.layout.aggregate_dictionary[aggregate],
                   c_.program->aggregate_domains[aggregate]);
  }

  CellDecoder decoder(const Type& type, int dictionary_column, int domain) {
    if (domain >= 0 && type.is_string()) return {type, &lookup_tables_.domains[domain]};
    if (dictionary_column < 0) return {type, nullptr};
    auto& ids = interned_[dictionary_column];
    if (ids.empty()) {
      const Column& column = *table_.columns[query_.scan[dictionary_column].table_column];
      ids = strings_.intern_all(column.dictionary());
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
  cuda::DeviceBuffer table_keys_, distinct_, distinct_bitmap_;
  cuda::DeviceBuffer packed_counts_, pack_carries_;  // compiler/plan/count_sum_packing.h
  cuda::DeviceBuffer results_;  // a small result's one buffer: the views below are parts of it
  cuda::DeviceBuffer status_, out_count_;
  std::vector<uint64_t> arg_words_;  // the kernels' parameter block (KernelArgs<N>)
  cuda::DeviceBuffer out_keys_, out_key_nulls_, out_values_, out_value_nulls_;
  uint64_t max_groups_ = 0;
  uint64_t slice_first_ = 0;  // the Scan pass's first slot (ArgKind::SliceFirst)
  std::map<int, std::vector<int64_t>> interned_;  // string ids of a scan column's dictionary
  std::unique_ptr<BatchStreamer> streamer_;       // when the plan is streamed
  const ScanBatch* batch_ = nullptr;              // the batch whose Scan is being queued
  const ScanBatch* part_ = nullptr;  // a part's columns resident on the device (use_part)
};

// An attempt's compilation in the report: code generation, NVRTC, where the binary came from.
inline void report_compilation(GpuRunReport& report, const GpuCompilation& c, int attempt) {
  report.codegen_ms += c.codegen_ms;
  report.nvrtc_ms += c.source == BinarySource::Nvrtc ? c.binary->compile_ms : 0;
  report.binary_source = c.source;
  report.quick_kernels = c.quick;
  report.disk_load_ms += c.disk_load_ms;
  report.attempts = attempt;
}

// The capacity of the rerun after a hash table filled up.
inline uint64_t grown_capacity(const GpuPlan& plan, uint64_t rows) {
  if (plan.strategy != GpuStrategy::Hash) return std::max<uint64_t>(1024, 2 * rows);
  return plan.slots * 4;
}

// After an attempt's kernels: throws the rows' errors (as the CPU engine would), or grows a
// table that filled up and returns true for a rerun of `plan`, or returns false: done. A
// rerun's causes are added to `reruns` (GpuRunReport::reruns).
inline bool rerun_after(uint32_t status, const GpuExecution& run, GpuPlan& plan, int attempt,
                        uint64_t rows, std::string& reruns) {
  constexpr int kMaxAttempts = 8;
  // A row's error comes first: a key computed from a failed cast or overflow may well fall
  // outside its domain, and the CPU engine reports the row's error.
  run.raise_errors(status);
  if (status & kStatusKeyOutOfRange) {
    // Keys come from exact column statistics, so this is a planner bug, not bad data.
    throw Error(ErrorKind::Internal, "a GROUP BY key fell outside the domain its statistics gave");
  }
  const bool full = (status & (kStatusTableFull | kStatusDistinctFull)) != 0;
  const bool ambiguous = (status & kStatusPackedSumAmbiguous) != 0;
  if (!full && !ambiguous) return false;
  if (attempt >= kMaxAttempts)
    throw Error(ErrorKind::Device, "the GPU hash table kept filling up; giving up");
  // A full table costs a rerun with a larger one, never a wrong answer.
  if (status & kStatusTableFull) plan = with_hash_capacity(plan, grown_capacity(plan, rows));
  if (status & kStatusDistinctFull) plan = with_distinct_capacity(plan, plan.distinct_capacity * 4);
  // A group's packed sum could have wrapped: the carrying layout cannot.
  if (ambiguous) plan.packed_sum_carries = true;
  std::string why = full ? "a table filled up and grew" : "";
  if (ambiguous) why += fmt::format("{}a packed sum could have wrapped", full ? ", " : "");
  add_rerun(reruns, why);
  return true;
}

}  // namespace tally
