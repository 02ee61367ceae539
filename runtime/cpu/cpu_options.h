// How the CPU engine runs a query: threads, morsels, cancellation, progress, and which of
// its two paths evaluates the rows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "compiler/common/string_heap.h"

namespace tally {

// Row: the reference row-at-a-time evaluator. Vector: the vectorized path
// (runtime/cpu/vector_engine.h), an Error(Unsupported) naming the reason where it cannot
// run the query. Auto: Vector where it can, else Row; the choice is made before the scan.
// The environment variable TALLY_CPU_PATH=row|vector|auto overrides Auto.
enum class CpuPath : uint8_t { Auto, Row, Vector };

struct CpuOptions {
  unsigned threads = 0;  // 0: one per hardware thread
  size_t morsel_rows = 16384;
  // Heap that VARCHAR parameter values point into; the result's strings live here too.
  std::shared_ptr<StringHeap> strings;
  // Asked before each morsel: true stops the query with Error(Cancelled).
  std::function<bool()> cancelled = {};
  // Told after each morsel: rows scanned so far, and in all (calls are serialised).
  std::function<void(uint64_t done, uint64_t total)> progress = {};
  CpuPath path = CpuPath::Auto;
  // Only rows [first_row, end_row) of the table (end_row 0: to its end): the CPU's share
  // of a table split with the GPU (runtime/gpu/coprocess.h).
  uint64_t first_row = 0;
  uint64_t end_row = 0;
};

}  // namespace tally
