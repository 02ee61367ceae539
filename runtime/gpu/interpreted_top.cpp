#include "runtime/gpu/interpreted_top.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "compiler/common/error.h"
#include "runtime/gpu/interpreted_scan.h"
#include "runtime/gpu/rank_select.h"

namespace tally {

namespace {

// Finds the threshold over the device's ranks, one histogram a pass.
RankSelect select_on_device(GpuEngine::Impl& engine, const cuda::DeviceBuffer& ranks,
                            uint64_t slots, uint64_t needed) {
  RankSelect select(needed, std::max(needed, kRankSelectEnough));
  cuda::DeviceBuffer bins =
      engine.pool.allocate(tally_interp::kRankBins * 4, "the interpreter's rank histogram");
  std::vector<uint32_t> counts(tally_interp::kRankBins);
  cuda::LaunchConfig config;
  config.grid = engine.interpreter.grid();
  while (!select.done()) {
    bins.fill_bytes(0);
    cuda::launch(engine.interpreter.rank_histogram(), config, ranks.ptr(), slots, select.prefix(),
                 select.shift(), bins.ptr());
    bins.download(counts.data(), counts.size() * 4);
    select.add(counts.data());
  }
  return select;
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

}  // namespace

std::optional<InterpretedGroups> download_top_groups(GpuEngine::Impl& engine,
                                                     const InterpretedTableParam& t,
                                                     const tally_interp::Program& program,
                                                     const RowProgram& p, uint64_t needed) {
  cuda::DeviceBuffer ranks = engine.pool.allocate(t.slots * 8, "the interpreter's ranks");
  cuda::LaunchConfig config;
  config.grid = engine.interpreter.grid();
  cuda::launch(engine.interpreter.rank(), config, t, program, p.top, ranks.ptr());
  const RankSelect select = select_on_device(engine, ranks, t.slots, needed);
  if (select.kept() > kInterpretedGroupsMax) return std::nullopt;
  InterpretedGroups d;
  if (select.kept() == 0) return d;
  const size_t fields = p.fields.size();
  cuda::DeviceBuffer groups = engine.pool.allocate(select.kept() * 8, "the selected groups");
  cuda::DeviceBuffer cells =
      engine.pool.allocate(std::max<size_t>(1, select.kept() * fields) * 16, "their states");
  cuda::DeviceBuffer taken = engine.pool.allocate(16, "a counter");
  taken.fill_bytes(0);
  const auto room = static_cast<uint32_t>(select.kept());
  cuda::launch(engine.interpreter.gather(), config, t, program, ranks.ptr(), select.threshold(),
               groups.ptr(), cells.ptr(), taken.ptr(), room);
  uint32_t count = 0;
  taken.download(&count, sizeof count);
  if (count != room) {
    throw Error(ErrorKind::Internal,
                fmt::format("the interpreter's selection copied {} groups of {}", count, room));
  }
  d.groups.resize(select.kept());
  d.cells.resize(select.kept() * fields);
  groups.download(d.groups.data(), d.groups.size() * 8);
  if (!d.cells.empty()) cells.download(d.cells.data(), d.cells.size() * 16);
  return by_group_number(d, fields);
}

}  // namespace tally
