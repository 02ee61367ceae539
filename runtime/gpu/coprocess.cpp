#include "runtime/gpu/coprocess.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <thread>

#include "compiler/common/elapsed.h"
#include "runtime/cpu/cpu_engine.h"
#include "runtime/gpu/row_queue.h"

namespace tally {

namespace {

// One core stays with the thread that feeds the GPU its copies.
unsigned cpu_threads() { return std::max(1u, std::thread::hardware_concurrency() - 1); }

}  // namespace

uint64_t cpu_chunk_rows(unsigned threads) {
  const uint64_t rows =
      std::max<uint64_t>(uint64_t{4} * threads * CpuOptions{}.morsel_rows, uint64_t{1} << 20);
  return rows / kLaneBlockRows * kLaneBlockRows;
}

uint64_t next_cpu_chunk(uint64_t base, uint64_t remaining, double cpu_rate, double gpu_rate) {
  if (gpu_rate <= 0 || cpu_rate <= 0) return base;
  const double share = cpu_rate / (cpu_rate + gpu_rate);
  const auto fair = static_cast<uint64_t>(share * static_cast<double>(remaining));
  const uint64_t chunk = std::min(base, fair) / kLaneBlockRows * kLaneBlockRows;
  return chunk < base / 16 ? 0 : chunk;
}

Result run_coprocessed(GpuEngine& engine, const BoundSelect& query, const Table& table,
                       const std::vector<Value>& parameters, std::shared_ptr<StringHeap> strings,
                       const GpuRunOptions& options, CoprocessReport* report) {
  const uint64_t rows = table.rows();
  RowQueue queue(0, rows);
  CoprocessReport r;
  const unsigned threads = cpu_threads();
  const uint64_t chunk = std::min(cpu_chunk_rows(threads), rows / 2);
  std::vector<PartialGroups> cpu_parts;
  std::exception_ptr cpu_failure;
  RowRange first = queue.take_back(chunk);
  std::thread cpu_thread([&] {
    try {
      auto start = std::chrono::steady_clock::now();
      RowRange taken = first;
      while (!taken.empty()) {
        const uint64_t front_before = queue.front_end();
        auto chunk_start = std::chrono::steady_clock::now();
        CpuOptions cpu;
        cpu.first_row = taken.first;
        cpu.end_row = taken.end;
        cpu.threads = threads;
        cpu.strings = strings;  // where the parameters' strings are (the heap is shared safely)
        cpu_parts.push_back(run_cpu_partial(query, &table, cpu, parameters));
        r.cpu_rows += taken.rows();
        const double ms = std::max(ms_since(chunk_start), 1e-3);
        const double gpu_rate = static_cast<double>(queue.front_end() - front_before) / ms;
        const uint64_t next = next_cpu_chunk(chunk, queue.remaining(),
                                             static_cast<double>(taken.rows()) / ms, gpu_rate);
        taken = next > 0 ? queue.take_back(next) : RowRange{};
      }
      r.cpu_part_ms = ms_since(start);
    } catch (...) {
      cpu_failure = std::current_exception();
      queue.take_back(rows);  // the rest to no one: the GPU's part ends soon, then this throws
    }
  });
  GpuRunOptions gpu_options = options;
  gpu_options.placement = Placement::Host;
  gpu_options.row_queue = &queue;
  auto start = std::chrono::steady_clock::now();
  PartialGroups merged;
  try {
    merged = engine.run_part(query, table, 0, rows, parameters, strings, gpu_options, &r.gpu);
  } catch (...) {
    queue.take_front(rows);  // nothing more for the CPU either
    cpu_thread.join();
    throw;
  }
  r.gpu_part_ms = ms_since(start);
  r.gpu_rows = queue.front_end();
  cpu_thread.join();
  if (cpu_failure) std::rethrow_exception(cpu_failure);
  r.cpu_chunks = cpu_parts.size();
  combine_partial_groups(query, merged, cpu_parts);
  Result result = finish_partial_groups(query, std::move(merged), parameters);
  result.device = "gpu: " + engine.device_name() + " with the CPU engine";
  if (report) *report = std::move(r);
  return result;
}

std::string describe_cpu_part(const CoprocessReport& report, uint64_t rows) {
  return fmt::format("CPU engine: {:.1f}% of rows in {} chunk{}, {:.2f} ms",
                     rows > 0 ? 100.0 * static_cast<double>(report.cpu_rows) / rows : 0.0,
                     report.cpu_chunks, report.cpu_chunks == 1 ? "" : "s", report.cpu_part_ms);
}

}  // namespace tally
