// What a fuzz run counts, in memory shared between the parent and its forked children
// (tools/fuzz/runner.h), so the counts survive a child that crashes.
#pragma once

#include <atomic>
#include <cstdint>

namespace tally::fuzz {

enum Counter : int {
  kOk,
  kErrorSyntax,  // then one per ErrorKind, in ErrorKind's order, through Internal
  kErrorInternal = kErrorSyntax + 11,
  kCodegen,
  kNvrtc,
  kCodegenUnsupported,
  kGpuCompared,
  kGpuUnsupported,
  kFindings,
  kCounterCount
};

struct Counters {
  std::atomic<uint64_t> values[kCounterCount];
  void add(int counter) { values[counter].fetch_add(1, std::memory_order_relaxed); }
  uint64_t get(int counter) const { return values[counter].load(std::memory_order_relaxed); }
};

}  // namespace tally::fuzz
