#include "runtime/gpu/interpreted_top.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "compiler/common/error.h"
#include "runtime/gpu/interpreted_scan.h"
#include "runtime/gpu/rank_select.h"

namespace tally {

namespace {

cuda::LaunchConfig grid_config(const GpuEngine::Impl& engine) {
  cuda::LaunchConfig config;
  config.grid = engine.interpreter.grid();
  return config;
}

// Every slot's rank by `order` (tally_interp::kRankEmpty where it holds no group).
cuda::DeviceBuffer rank_slots(GpuEngine::Impl& engine, const InterpretedTableParam& t,
                              const tally_interp::Program& program,
                              const tally_interp::TopOrder& order) {
  cuda::DeviceBuffer ranks = engine.pool.allocate(t.slots * 8, "the interpreter's ranks");
  cuda::launch(engine.interpreter.rank(), grid_config(engine), t, program, order, ranks.ptr());
  return ranks;
}

// One pass's counts of the ranks within `prefix` by their digit at `shift`.
std::vector<uint32_t> rank_histogram(GpuEngine::Impl& engine, const cuda::DeviceBuffer& ranks,
                                     uint64_t slots, uint64_t prefix, uint32_t shift) {
  cuda::DeviceBuffer bins =
      engine.pool.allocate(tally_interp::kRankBins * 4, "the interpreter's rank histogram");
  bins.fill_bytes(0);
  cuda::launch(engine.interpreter.rank_histogram(), grid_config(engine), ranks.ptr(), slots, prefix,
               shift, bins.ptr());
  std::vector<uint32_t> counts(tally_interp::kRankBins);
  bins.download(counts.data(), counts.size() * 4);
  return counts;
}

// `d`'s groups in order of their numbers, so that a run's rows do not depend on the gather's
// order.
InterpretedGroups by_group_number(const InterpretedGroups& d, size_t fields) {
  std::vector<size_t> order(d.groups.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return d.groups[a] < d.groups[b]; });
  InterpretedGroups sorted;
  for (const size_t i : order) {
    sorted.groups.push_back(d.groups[i]);
    sorted.cells.insert(sorted.cells.end(), d.cells.begin() + static_cast<ptrdiff_t>(i * fields),
                        d.cells.begin() + static_cast<ptrdiff_t>((i + 1) * fields));
  }
  return sorted;
}

// Copies out the `count` groups ranked at most `threshold` and downloads them.
InterpretedGroups gather_groups(GpuEngine::Impl& engine, const InterpretedTableParam& t,
                                const tally_interp::Program& program, const RowProgram& p,
                                const cuda::DeviceBuffer& ranks, uint64_t threshold,
                                uint64_t count) {
  InterpretedGroups d;
  if (count == 0) return d;
  const size_t fields = p.fields.size();
  cuda::DeviceBuffer groups = engine.pool.allocate(count * 8, "the selected groups");
  cuda::DeviceBuffer cells =
      engine.pool.allocate(std::max<size_t>(1, count * fields) * 16, "their states");
  cuda::DeviceBuffer taken = engine.pool.allocate(16, "a counter");
  taken.fill_bytes(0);
  const auto room = static_cast<uint32_t>(count);
  cuda::launch(engine.interpreter.gather(), grid_config(engine), t, program, ranks.ptr(), threshold,
               groups.ptr(), cells.ptr(), taken.ptr(), room);
  uint32_t copied = 0;
  taken.download(&copied, sizeof copied);
  if (copied != room) {
    throw Error(ErrorKind::Internal,
                fmt::format("the interpreter's selection copied {} groups of {}", copied, room));
  }
  d.groups.resize(count);
  d.cells.resize(count * fields);
  groups.download(d.groups.data(), d.groups.size() * 8);
  if (!d.cells.empty()) cells.download(d.cells.data(), d.cells.size() * 16);
  return by_group_number(d, fields);
}

}  // namespace

std::optional<InterpretedGroups> download_top_groups(GpuEngine::Impl& engine,
                                                     const InterpretedTableParam& t,
                                                     const tally_interp::Program& program,
                                                     const RowProgram& p, uint64_t needed) {
  const cuda::DeviceBuffer ranks = rank_slots(engine, t, program, p.top);
  RankSelect select(needed, std::max(needed, kRankSelectEnough));
  while (!select.done()) {
    select.add(rank_histogram(engine, ranks, t.slots, select.prefix(), select.shift()).data());
  }
  if (select.kept() > kInterpretedGroupsMax) return std::nullopt;
  return gather_groups(engine, t, program, p, ranks, select.threshold(), select.kept());
}

std::optional<InterpretedGroups> download_few_groups(GpuEngine::Impl& engine,
                                                     const InterpretedTableParam& t,
                                                     const tally_interp::Program& program,
                                                     const RowProgram& p, uint64_t* made) {
  // Any order counts them: group key 0's (a large domain has keys).
  const cuda::DeviceBuffer ranks = rank_slots(engine, t, program, {0, -1, -1, 0});
  const std::vector<uint32_t> counts = rank_histogram(engine, ranks, t.slots, 0, 64 - 8);
  *made = std::accumulate(counts.begin(), counts.end(), uint64_t{0});
  if (*made > kInterpretedGroupsMax) return std::nullopt;
  return gather_groups(engine, t, program, p, ranks, tally_interp::kRankEmpty - 1, *made);
}

}  // namespace tally
