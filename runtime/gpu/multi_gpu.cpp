#include "runtime/gpu/multi_gpu.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <thread>

#include "compiler/common/error.h"
#include "runtime/cuda/device.h"
#include "runtime/gpu/device_layout.h"

namespace tally {

std::vector<int> device_ordinals(const std::string& devices) {
  if (devices.empty()) return {};
  const int count = cuda::device_count();
  std::vector<int> ordinals;
  if (devices == "all") {
    for (int d = 0; d < count; ++d) ordinals.push_back(d);
    return ordinals;
  }
  size_t at = 0;
  while (at <= devices.size()) {
    const size_t comma = std::min(devices.find(',', at), devices.size());
    const std::string item = devices.substr(at, comma - at);
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos ||
        item.size() > 4) {
      throw Error(
          ErrorKind::Unsupported,
          fmt::format("--devices \"{}\": name GPUs as all or ordinals such as 0,1", devices));
    }
    const int ordinal = std::stoi(item);
    if (ordinal >= count) {
      throw Error(ErrorKind::Device,
                  fmt::format("--devices names GPU {}, but this host has {} GPU{}", ordinal, count,
                              count == 1 ? "" : "s"));
    }
    ordinals.push_back(ordinal);
    at = comma + 1;
  }
  return ordinals;
}

std::vector<std::pair<uint64_t, uint64_t>> split_rows(uint64_t rows, size_t parts) {
  const uint64_t blocks = (rows + kLaneBlockRows - 1) / kLaneBlockRows;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (size_t p = 0; p < parts; ++p) {
    const uint64_t first = blocks * p / parts * kLaneBlockRows;
    const uint64_t end = std::min(rows, blocks * (p + 1) / parts * kLaneBlockRows);
    ranges.emplace_back(std::min(first, rows), end);
  }
  return ranges;
}

Result run_on_gpus(std::span<GpuEngine* const> engines, const BoundSelect& query,
                   const Table& table, const std::vector<Value>& parameters,
                   std::shared_ptr<StringHeap> strings, const GpuRunOptions& options,
                   std::vector<GpuRunReport>* reports) {
  const auto ranges = split_rows(table.rows(), engines.size());
  std::vector<PartialGroups> parts(engines.size());
  std::vector<GpuRunReport> part_reports(engines.size());
  std::vector<std::exception_ptr> failures(engines.size());
  auto run_part = [&](size_t p) {
    try {
      parts[p] = engines[p]->run_part(query, table, ranges[p].first, ranges[p].second, parameters,
                                      parts[p].strings, options, &part_reports[p]);
    } catch (...) {
      failures[p] = std::current_exception();
    }
  };
  // Each part interns its strings in a heap of its own; combining moves them into parts[0]'s.
  for (size_t p = 0; p < engines.size(); ++p)
    parts[p].strings = p == 0 ? strings : std::make_shared<StringHeap>();
  if (options.placement == Placement::Host) {
    // A streamed part's host thread feeds its batches until the last is queued: a thread
    // a part keeps every bus busy.
    std::vector<std::thread> threads;
    for (size_t p = 1; p < engines.size(); ++p) threads.emplace_back(run_part, p);
    run_part(0);
    for (std::thread& t : threads) t.join();
    for (const std::exception_ptr& failure : failures) {
      if (failure) std::rethrow_exception(failure);  // the lowest part's, as a run would
    }
  } else {
    // Resident parts: every GPU's kernels queued from this thread, then waited for in
    // turn, so no part pays a thread start and the GPUs start within microseconds.
    std::vector<GpuPartRun> runs;
    runs.reserve(engines.size());  // parts point at the first
    for (size_t p = 0; p < engines.size(); ++p) {
      runs.push_back(engines[p]->start_part(query, table, ranges[p].first, ranges[p].second,
                                            parameters, parts[p].strings, options, &part_reports[p],
                                            p > 0 ? &runs[0] : nullptr));
    }
    for (size_t p = 0; p < engines.size(); ++p) parts[p] = engines[p]->finish_part(runs[p]);
  }
  PartialGroups merged = std::move(parts[0]);
  combine_partial_groups(query, merged, std::span(parts).subspan(1));
  Result result = finish_partial_groups(query, std::move(merged), parameters);
  result.device = fmt::format("gpu: {} parts on {}", engines.size(), engines[0]->device_name());
  if (reports) *reports = std::move(part_reports);
  return result;
}

}  // namespace tally
