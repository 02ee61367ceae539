// Morsel-driven parallelism, shared by the CPU engine's row and vector paths: workers claim
// morsels of rows in order from one counter until none is left.
#pragma once

#include <cstddef>
#include <functional>

#include "runtime/cpu/cpu_options.h"

namespace tally {

struct MorselRange {
  size_t index;  // morsels are numbered in row order
  size_t begin;
  size_t end;
};

// The number of workers for `rows` rows (at least one, at most one per morsel).
unsigned morsel_workers(size_t rows, const CpuOptions& options);

// Calls work(worker, morsel) for every morsel of `rows` rows (of the window first_row, end_row
// of `options` when set; morsels are numbered from 0 there) on `workers` threads, asking
// options.cancelled before each and telling options.progress after each. Stops early when
// work returns true (it has what it needs) or throws; the first exception is rethrown.
void run_morsels(size_t rows, unsigned workers, const CpuOptions& options,
                 const std::function<bool(unsigned, const MorselRange&)>& work);

}  // namespace tally
