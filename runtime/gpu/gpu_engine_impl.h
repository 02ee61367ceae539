// The GPU engine's state (device, memory pool, columns already uploaded, modules already
// loaded) and what every execution of a generated program needs, whatever it computes: the
// aggregation's (gpu_engine.cpp) and the non-aggregated query's (gpu_projection.cpp).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "compiler/codegen/gpu_program.h"
#include "compiler/codegen/lookup_tables.h"
#include "compiler/common/elapsed.h"
#include "compiler/common/string_heap.h"
#include "runtime/cuda/device.h"
#include "runtime/cuda/memory.h"
#include "runtime/cuda/module.h"
#include "runtime/gpu/device_layout.h"
#include "runtime/gpu/gpu_engine.h"
#include "runtime/gpu/host_columns.h"
#include "runtime/gpu/interpreted_scan.h"
#include "runtime/gpu/pinned_staging.h"
#include "runtime/gpu/streamed_scan.h"
#include "runtime/storage/table.h"

namespace tally {

struct DeviceColumn {
  ColumnPtr column;  // keeps the address unique while cached
  cuda::DeviceBuffer data;
  cuda::DeviceBuffer validity;
  uint64_t last_query = 0;  // the query that last read it (least recently used goes first)
};

// A loaded module and the binary it came from: holding the binary keeps its address, the
// map's key, from being reused by another program while the module is cached.
struct LoadedModule {
  std::shared_ptr<const cuda::CompiledKernel> binary;
  cuda::Module module;
  uint64_t last_query = 0;
};

struct GpuEngine::Impl {
  // Modules stay loaded for repeated statements; beyond this many the least recently used
  // is unloaded (a long-lived engine sees unboundedly many distinct queries).
  static constexpr size_t kMaxModules = 64;

  cuda::Device device;
  cuda::BufferPool pool;
  std::mutex mutex;
  std::map<const Column*, DeviceColumn> columns;
  std::map<const Column*, HostColumn> host_columns;  // of tables streamed from host memory
  // Rows [first, end) of a column: this device's part of a table split across engines.
  std::map<std::tuple<const Column*, uint64_t, uint64_t>, DeviceColumn> part_columns;
  std::map<const cuda::CompiledKernel*, LoadedModule> modules;
  std::string lookup_error;
  PinnedStaging staging;           // column uploads and result downloads
  DeviceTranspose transpose;       // bit-packed columns' device layout, made on the device
  InterpreterKernels interpreter;  // new statements' kernels while their own compile
  cuda::PinnedBuffer readback;     // a part's status, group count and state cells (few groups)
  uint64_t uploaded_bytes = 0;     // by upload_column, ever (a run reports its difference)
  uint64_t query = 0;              // sequence number of the query running now
  // Kernel timers whose events are reused: two cuEventCreate and two cuEventDestroy a launch
  // were a visible part of a repeated small query.
  std::vector<cuda::EventTimer> spare_timers;

  cuda::EventTimer take_timer() {
    if (spare_timers.empty()) return cuda::EventTimer();
    cuda::EventTimer timer = std::move(spare_timers.back());
    spare_timers.pop_back();
    return timer;
  }

  explicit Impl(int ordinal) : device(cuda::Device::supported(ordinal)) {
    pool.set_reclaimer([this] { return evict_column(); });
  }

  // Starts a query under a device memory limit (0: none): columns of tables that were dropped
  // or replaced (only this cache still holds them) leave the device now rather than at the
  // next out-of-memory.
  void begin_query(uint64_t memory_limit) {
    device.make_current();
    pool.set_limit(memory_limit);
    lookup_error.clear();
    ++query;
    std::erase_if(part_columns,
                  [](const auto& entry) { return entry.second.column.use_count() == 1; });
    std::erase_if(columns, [](const auto& entry) { return entry.second.column.use_count() == 1; });
    std::erase_if(host_columns,
                  [](const auto& entry) { return entry.second.column.use_count() == 1; });
  }

  // Starts copying the scan's columns that are not on the device yet on a thread of its own,
  // so that they cross the bus while the kernels compile (NVRTC: 0.1-2 s); the returned
  // future gives the copy's milliseconds, and must be waited for before anything else
  // touches this engine. Nothing to wait for when every column is resident.
  std::future<double> upload_ahead(const BoundSelect& select, const Table& table) {
    std::vector<ColumnPtr> missing;
    uint64_t bytes = 0;
    for (const auto& scanned : select.scan) {
      const ColumnPtr& column = table.columns[scanned.table_column];
      if (auto it = columns.find(column.get()); it != columns.end()) {
        it->second.last_query = query;  // the copies ahead must not evict it
        continue;
      }
      missing.push_back(column);
      bytes += PinnedStaging::data_bytes(*column);
    }
    if (missing.empty()) return {};
    // Enough bytes to keep every worker copying: pin all their buffers first.
    const bool pin_all = bytes >= (uint64_t{256} << 20);
    return std::async(std::launch::async, [this, pin_all, missing = std::move(missing)] {
      auto start = std::chrono::steady_clock::now();
      device.make_current();  // the driver's current context is per thread
      if (pin_all) staging.pin_lanes();
      for (const ColumnPtr& column : missing) upload_column(column);
      return ms_since(start);
    });
  }

  // The column's device layout in pinned host memory, written once.
  const HostColumn& host_column(const ColumnPtr& column) {
    auto it = host_columns.find(column.get());
    if (it == host_columns.end()) {
      it = host_columns.emplace(column.get(), make_host_column(column)).first;
    }
    it->second.last_query = query;
    return it->second;
  }

  // Frees the least recently used column that the running query has not read; false when
  // there is none (then the allocation reports out of device memory).
  bool evict_column() {
    auto victim = columns.end();
    for (auto it = columns.begin(); it != columns.end(); ++it) {
      if (it->second.last_query == query) continue;
      if (victim == columns.end() || it->second.last_query < victim->second.last_query) victim = it;
    }
    if (victim == columns.end()) return false;
    columns.erase(victim);
    return true;
  }

  const DeviceColumn& upload_column(const ColumnPtr& column) {
    auto it = columns.find(column.get());
    if (it != columns.end()) {
      it->second.last_query = query;
      return it->second;
    }
    DeviceColumn d;
    d.column = column;
    d.last_query = query;
    // Every column carries a zeroed tail (kBlockPadBytes) and every validity bitmap covers
    // whole blocks: the scan decodes whole 1024-row blocks.
    const uint64_t size = PinnedStaging::data_bytes(*column);
    d.data = pool.allocate(size + kBlockPadBytes, "a column");
    const auto& validity = column->validity_words();
    const size_t block_words = kLaneBlockRows / 64;
    const size_t words = (validity.size() + block_words - 1) / block_words * block_words;
    if (!validity.empty()) d.validity = pool.allocate(words * 8, "a validity bitmap");
    staging.upload(device, *column, d.data, d.validity, &transpose);
    uploaded_bytes += size + validity.size() * 8;
    static const std::vector<uint8_t> zeros(kBlockPadBytes, 0);
    d.data.upload(zeros.data(), kBlockPadBytes, size);  // the tail only, not the column again
    if (words > validity.size()) {
      d.validity.upload(zeros.data(), (words - validity.size()) * 8, validity.size() * 8);
    }
    return columns.emplace(column.get(), std::move(d)).first->second;
  }

  // Rows [first_row, end_row) of a column resident on the device, copied from its
  // host-resident layout once.
  const DeviceColumn& upload_part(const ColumnPtr& column, uint64_t first_row, uint64_t end_row) {
    const auto key = std::make_tuple(column.get(), first_row, end_row);
    auto it = part_columns.find(key);
    if (it == part_columns.end()) {
      const HostColumn& host = host_column(column);
      DeviceColumn d;
      d.column = column;
      const ByteRange data = host.data_range(first_row, end_row);
      d.data = pool.allocate(data.size(), "a part of a column");
      d.data.upload(static_cast<const uint8_t*>(host.data.data()) + data.begin, data.size());
      const ByteRange validity = host.validity_range(first_row, end_row);
      if (validity.size() > 0) {
        d.validity = pool.allocate(validity.size(), "a part of a validity bitmap");
        d.validity.upload(static_cast<const uint8_t*>(host.validity.data()) + validity.begin,
                          validity.size());
      }
      uploaded_bytes += data.size() + validity.size();
      it = part_columns.emplace(key, std::move(d)).first;
    }
    it->second.last_query = query;
    return it->second;
  }

  const cuda::Module& module_for(const std::shared_ptr<const cuda::CompiledKernel>& binary) {
    auto it = modules.find(binary.get());
    if (it == modules.end()) {
      if (modules.size() >= kMaxModules) {
        auto oldest = std::min_element(
            modules.begin(), modules.end(),
            [](const auto& a, const auto& b) { return a.second.last_query < b.second.last_query; });
        modules.erase(oldest);
      }
      it = modules.emplace(binary.get(), LoadedModule{binary, cuda::Module(binary->image), query})
               .first;
    }
    it->second.last_query = query;
    return it->second.module;
  }
};

// One execution's inputs, for the helpers below.
struct GpuRunInputs {
  GpuEngine::Impl& engine;
  const BoundSelect& query;
  const Table& table;
  const std::vector<Value>& parameters;
  StringHeap& strings;
  // Streamed from host memory: the columns are the batch's (none outside a batch: Init and
  // the Finalizer read no rows).
  bool streamed = false;
  const ScanBatch* batch = nullptr;
};

// A value as the kernels read and write it: 16 bytes, DECIMAL unscaled, REAL/DOUBLE as
// their bits, everything else as an integer.
int128 to_cell(const Value& v, const Type& t);
Value from_cell(int128 cell, bool null, const Type& t);
// A cell of `type`, the dictionary code of scan column `dictionary_column` when >= 0.
Value decode_cell(const GpuRunInputs& in, int128 cell, bool null, const Type& type,
                  int dictionary_column);

// Blocks of 256 threads over `items`, capped.
uint32_t launch_grid(uint64_t items);
// Launches `kernel` with its argument block (KernelArgs<N>, copied by the driver at launch).
void launch_with_args(const cuda::Kernel& kernel, uint32_t grid, uint32_t block,
                      std::vector<uint64_t>& args, bool dependent = false,
                      uint64_t shared_bytes = 0, const cuda::Stream* stream = nullptr);
// Launches `kernel` with its argument block; returns its time on the device.
float launch_timed(const cuda::Kernel& kernel, uint32_t grid, uint32_t block,
                   std::vector<uint64_t>& args);

// The program's lookup tables (per dictionary code or string-domain id) and string domains,
// by the CPU evaluator (compiler/codegen/lookup_tables.h), uploaded: for each lookup its values,
// then its NULL flags (ArgKind::LookupValues, LookupNulls). `tables` keeps the domains'
// strings, which decode computed-string results.
std::vector<cuda::DeviceBuffer> upload_lookups(const GpuRunInputs& in, const GpuProgram& program,
                                               LookupTables& tables);

// The argument words that come from the inputs rather than from an execution's own
// buffers: Rows, ColumnData, ColumnValidity, LookupValues, LookupNulls, ParamWord.
bool is_input_arg(ArgKind kind);
uint64_t input_arg(const GpuRunInputs& in, const std::vector<cuda::DeviceBuffer>& lookups,
                   const ArgSlot& a);

// The status word a kernel raised its bits in (templates/tally_status.cuh).
uint32_t read_status_word(const cuda::DeviceBuffer& status);

// Throws the CPU engine's error for a status word's error bits (nothing when none is set).
void raise_status_errors(uint32_t status, const std::string& lookup_error);

}  // namespace tally
