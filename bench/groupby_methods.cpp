#include "bench/groupby_methods.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <stdexcept>

#include "bench/bench_util.h"
#include "compiler/common/error.h"
#include "runtime/cpu/cpu_engine.h"
#ifdef TALLY_HAVE_PEERS
#include "bench/groupby_peers.h"
#endif

namespace tally::bench {

namespace {

// The strategy a plan's text names ("GPU strategy: hash (reason)\n...").
// Auto's strategy from its --explain text, with the slices of a sliced block table and a
// Direct table's spread slots, which change its time as much as the strategy does.
std::string chosen_strategy(const std::string& plan) {
  const std::string tag = "GPU strategy: ";
  if (plan.rfind(tag, 0) != 0) return "?";
  const size_t end = plan.find_first_of(" \n", tag.size());
  std::string chosen =
      plan.substr(tag.size(), end == std::string::npos ? std::string::npos : end - tag.size());
  const std::string sliced = "block table: ";
  const size_t at = plan.find(sliced);
  if (at != std::string::npos) {
    const size_t count_end = plan.find(" slices of ", at);
    const size_t line_end = plan.find('\n', at);
    if (count_end != std::string::npos && count_end < line_end) {
      chosen +=
          " in " + plan.substr(at + sliced.size(), count_end - at - sliced.size()) + " slices";
    }
  }
  if (plan.find("(neighbours spread)") != std::string::npos) chosen += " (spread)";
  return chosen;
}

}  // namespace

const char* status_name(Status status) {
  switch (status) {
    case Status::Ran:
      return "ran";
    case Status::NotApplicable:
      return "n/a";
    case Status::Failed:
      return "failed";
    case Status::Wrong:
      return "wrong";
  }
  return "?";
}

void check_against(Measured& m, const Reference& ref, const GroupTotals& got) {
  const std::string difference = compare_totals(ref, got);
  if (difference.empty()) return;
  m.status = Status::Wrong;
  m.note = m.note.empty() ? difference : m.note + "; " + difference;
}

size_t bytes_read(const BoundSelect& query, const Point& point) {
  size_t bytes = 0;
  for (const auto& column : query.scan) {
    bytes += point.table->columns[static_cast<size_t>(column.table_column)]->encoded_bytes();
  }
  return bytes;
}

Measured run_cpu_engine(const BoundSelect& query, const Point& point, KeyKind kind,
                        GroupTotals& totals) {
  Measured m{"cpu"};
  try {
    const auto start = std::chrono::steady_clock::now();
    Result r = run_cpu(query, point.table.get(), {});
    m.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    totals = result_totals(r, point, kind);
    m.status = Status::Ran;
  } catch (const std::exception& e) {
    m.status = Status::Failed;
    m.note = e.what();
  }
  return m;
}

Measured run_tally(GpuEngine& engine, const BoundSelect& query, const Point& point, KeyKind kind,
                   const std::string& strategy, Timing timing, const Reference& ref) {
  Measured m{strategy};
  m.bytes = bytes_read(query, point);
  try {
    GpuRunOptions options;
    // direct1: a Direct plan that never slices its table for L2, whatever its size.
    options.strategy = strategy_from_name(strategy == "direct1" ? "direct" : strategy);
    if (strategy == "direct1") options.plan_l2_bytes = ~0ull;
    GpuRunReport report;
    auto run = [&] {
      return engine.run(query, *point.table, {}, std::make_shared<StringHeap>(), options, &report);
    };
    const GroupTotals totals = result_totals(run(), point, kind);
    m.status = Status::Ran;
    if (strategy == "auto") m.note = chosen_strategy(report.plan);
    if (report.attempts > 1) {
      m.note += fmt::format("{}{} attempts ({})", m.note.empty() ? "" : ", ", report.attempts,
                            report.reruns);
    }
    check_against(m, ref, totals);
    if (m.status == Status::Wrong) return m;
    for (int i = 0; i < timing.warmup; ++i) run();
    std::vector<double> ms;
    for (int i = 0; i < timing.reps; ++i) {
      run();
      ms.push_back(report.init_ms + report.scan_ms + report.finalize_ms);
    }
    m.ms = median(ms);
  } catch (const Error& e) {
    m.status = e.kind() == ErrorKind::Unsupported ? Status::NotApplicable : Status::Failed;
    m.note = e.what();
  } catch (const std::exception& e) {
    m.status = Status::Failed;
    m.note = e.what();
  }
  return m;
}

#ifdef TALLY_HAVE_PEERS

std::vector<std::string> peer_names() {
  std::vector<std::string> names;
  for (int peer = 0; peer < GROUPBY_PEER_COUNT; ++peer) names.push_back(groupby_peer_name(peer));
  return names;
}

void peers_set_values(const std::vector<int32_t>& values) {
  if (groupby_peers_set_values(values.data(), values.size()) != 0) {
    throw std::runtime_error(groupby_peers_error());
  }
}

std::vector<Measured> run_peers(const Point& point, Timing timing, const Reference& ref) {
  std::vector<Measured> out;
  const bool keys_set = groupby_peers_set_keys(point.keys.data(), point.keys.size()) == 0;
  const auto k = static_cast<uint32_t>(point.k);
  for (int peer = 0; peer < GROUPBY_PEER_COUNT; ++peer) {
    Measured m{groupby_peer_name(peer)};
    m.peer = true;
    m.bytes = point.keys.size() * 8;  // an int32 key and an int32 value a row
    auto take = [&](const GroupbyPeerResult& r) {
      m.status = r.status == kPeerRan             ? Status::Ran
                 : r.status == kPeerNotApplicable ? Status::NotApplicable
                                                  : Status::Failed;
      m.note = r.message;
      m.ms = r.ms;
    };
    if (!keys_set) {
      m.status = Status::Failed;
      m.note = groupby_peers_error();
      out.push_back(m);
      continue;
    }
    GroupTotals got{std::vector<uint64_t>(point.k), std::vector<int64_t>(point.k)};
    take(groupby_peer_check(peer, k, got.counts.data(), got.sums.data()));
    if (m.status == Status::Ran) check_against(m, ref, got);
    const bool packed = peer == kPeerPackedRed || peer == kPeerL2Sliced;
    if (const size_t marked = packed && m.status == Status::Wrong ? marked_inexact(ref, got) : 0) {
      m.status = Status::NotApplicable;
      m.note = fmt::format("{} groups' sums pass the packed word (rerun unpacked)", marked);
    }
    if (m.status == Status::Ran) take(groupby_peer_time(peer, k, timing.warmup, timing.reps));
    out.push_back(m);
  }
  return out;
}

void peers_release() { groupby_peers_release(); }

#else  // built without nvcc: no peers

std::vector<std::string> peer_names() { return {}; }
void peers_set_values(const std::vector<int32_t>&) {}
std::vector<Measured> run_peers(const Point&, Timing, const Reference&) { return {}; }
void peers_release() {}

#endif

}  // namespace tally::bench
