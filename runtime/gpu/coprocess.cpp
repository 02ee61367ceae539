#include "runtime/gpu/coprocess.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>

#include "compiler/common/elapsed.h"
#include "runtime/cpu/cpu_engine.h"
#include "runtime/gpu/device_layout.h"

namespace tally {

uint64_t cpu_share_rows(uint64_t rows, const EngineRates& rates) {
  if (rates.gpu <= 0 || rates.cpu <= 0) return 0;
  const double share = rates.cpu / (rates.cpu + rates.gpu);
  const auto cpu_rows = static_cast<uint64_t>(share * static_cast<double>(rows));
  return std::min(rows, cpu_rows / kLaneBlockRows * kLaneBlockRows);
}

Result run_coprocessed(GpuEngine& engine, const BoundSelect& query, const Table& table,
                       const GpuRunOptions& options, EngineRates& rates, CoprocessReport* report) {
  const uint64_t rows = table.rows();
  // The GPU's part starts at row 0, so the CPU's begins on a block boundary of its own.
  const uint64_t split = (rows - cpu_share_rows(rows, rates)) / kLaneBlockRows * kLaneBlockRows;
  CoprocessReport r;
  r.cpu_rows = rows - split;
  PartialGroups cpu_part;
  std::exception_ptr cpu_failure;
  std::thread cpu_thread([&] {
    try {
      auto start = std::chrono::steady_clock::now();
      CpuOptions cpu;
      cpu.first_row = split;
      cpu.end_row = rows;
      // One core stays with the thread that feeds the GPU its copies.
      cpu.threads = std::max(1u, std::thread::hardware_concurrency() - 1);
      if (r.cpu_rows > 0) cpu_part = run_cpu_partial(query, &table, cpu);
      r.cpu_part_ms = ms_since(start);
    } catch (...) {
      cpu_failure = std::current_exception();
    }
  });
  auto strings = std::make_shared<StringHeap>();
  GpuRunOptions gpu_options = options;
  gpu_options.placement = Placement::Host;
  auto start = std::chrono::steady_clock::now();
  PartialGroups merged;
  try {
    merged = engine.run_part(query, table, 0, split, {}, strings, gpu_options, &r.gpu);
  } catch (...) {
    cpu_thread.join();
    throw;
  }
  r.gpu_part_ms = ms_since(start);
  cpu_thread.join();
  if (cpu_failure) std::rethrow_exception(cpu_failure);
  if (r.cpu_rows > 0) combine_partial_groups(query, merged, std::span(&cpu_part, 1));
  Result result = finish_partial_groups(query, std::move(merged), {});
  result.device = "gpu: " + engine.device_name() + " with the CPU engine";
  if (split > 0) rates.gpu = static_cast<double>(split) / std::max(r.gpu_part_ms, 1e-3);
  // Until the CPU has had a part, its rate is measured on a block of its own.
  if (r.cpu_rows > 0) {
    rates.cpu = static_cast<double>(r.cpu_rows) / std::max(r.cpu_part_ms, 1e-3);
  } else if (rates.cpu <= 0) {
    auto sample_start = std::chrono::steady_clock::now();
    CpuOptions sample;
    sample.end_row = std::min<uint64_t>(rows, uint64_t{1} << 20);
    sample.threads = std::max(1u, std::thread::hardware_concurrency() - 1);
    run_cpu_partial(query, &table, sample);
    rates.cpu = static_cast<double>(sample.end_row) / std::max(ms_since(sample_start), 1e-3);
  }
  if (report) *report = std::move(r);
  return result;
}

}  // namespace tally
