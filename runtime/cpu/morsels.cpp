#include "runtime/cpu/morsels.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "compiler/common/error.h"

namespace tally {

namespace {

size_t morsel_count(size_t rows, const CpuOptions& options) {
  return (rows + options.morsel_rows - 1) / options.morsel_rows;
}

}  // namespace

unsigned morsel_workers(size_t rows, const CpuOptions& options) {
  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  return static_cast<unsigned>(
      std::max<size_t>(1, std::min<size_t>(threads, morsel_count(rows, options))));
}

void run_morsels(size_t rows, unsigned workers, const CpuOptions& options,
                 const std::function<bool(unsigned, const MorselRange&)>& work) {
  const size_t first = std::min<size_t>(options.first_row, rows);
  const size_t end = options.end_row > 0 ? std::min<size_t>(options.end_row, rows) : rows;
  const size_t morsels = morsel_count(end - std::min(first, end), options);
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex, progress_mutex;
  uint64_t rows_done = 0;
  auto worker = [&](unsigned t) {
    try {
      for (size_t m; (m = next.fetch_add(1)) < morsels;) {
        if (options.cancelled && options.cancelled()) {
          throw Error(ErrorKind::Cancelled, "the statement was cancelled");
        }
        const size_t begin = first + m * options.morsel_rows;
        const MorselRange range{m, begin, std::min(end, begin + options.morsel_rows)};
        const bool enough = work(t, range);
        if (options.progress) {
          std::lock_guard lock(progress_mutex);
          rows_done += range.end - range.begin;
          options.progress(rows_done, end - std::min(first, end));
        }
        if (enough) next = morsels;
      }
    } catch (...) {
      std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = morsels;  // stop the other workers early
    }
  };
  if (workers == 1) {
    worker(0);
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < workers; ++t) pool.emplace_back(worker, t);
    for (auto& th : pool) th.join();
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace tally
