// The methods the GROUP BY sweep (bench/groupby_sweep.cpp) measures at one point, each checked
// against the reference before it is timed (a wrong result is reported, never timed): tally's GPU
// strategies, the hand-written peers (bench/groupby_peers.h, present when CMake found nvcc), and
// the CPU engine, whose result is the reference.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "bench/groupby_check.h"
#include "bench/groupby_workload.h"
#include "compiler/ir/query.h"
#include "runtime/gpu/gpu_engine.h"

namespace tally::bench {

enum class Status { Ran, NotApplicable, Failed, Wrong };
const char* status_name(Status status);  // "ran", "n/a", "failed", "wrong"

struct Measured {
  explicit Measured(std::string name) : method(std::move(name)) {}
  std::string method;  // "hash", "auto", "atomics", "cpu", "floor"
  Status status = Status::NotApplicable;
  double ms = 0;      // Ran: the median time
  size_t bytes = 0;   // what the method reads from device memory (0: not a GPU method)
  bool peer = false;  // a hand-written peer: the "x peer" ratios divide by the best of these
  std::string note;   // auto: the strategy it chose; n/a, failed, wrong: why
};

struct Timing {
  int warmup = 1;  // untimed runs after the checked one
  int reps = 5;    // timed runs: the median is reported
};

// Marks `m` Wrong, with the first difference added to its note, when `got` differs from
// the reference.
void check_against(Measured& m, const Reference& ref, const GroupTotals& got);

// The encoded bytes of the columns the query reads: what tally's scan loads, the floor's
// numerator.
size_t bytes_read(const BoundSelect& query, const Point& point);

// The CPU engine, once (wall time): its result, brought to totals, in `totals`. Never
// throws: a failure is Status::Failed with `totals` untouched.
Measured run_cpu_engine(const BoundSelect& query, const Point& point, KeyKind kind,
                        GroupTotals& totals);

// Tally's GPU engine with `strategy` forced ("auto" lets the planner choose; its note says
// what it chose): the kernels' time (init + scan + finalize, GpuRunReport) after the
// checked run, which also generates, compiles and uploads. A strategy the engine does not
// know or cannot plan the query with is Status::NotApplicable with the engine's reason.
Measured run_tally(GpuEngine& engine, const BoundSelect& query, const Point& point, KeyKind kind,
                   const std::string& strategy, Timing timing, const Reference& ref);

// The hand-written peers, when built (their names: empty when not).
std::vector<std::string> peer_names();
// Uploads the values every peer reads (the same for every point); throws on a CUDA error.
void peers_set_values(const std::vector<int32_t>& values);
// Every peer at the point: uploads its keys, checks each peer's result, then times it.
std::vector<Measured> run_peers(const Point& point, Timing timing, const Reference& ref);
// Frees the peers' device memory.
void peers_release();

}  // namespace tally::bench
