#include "compiler/common/run_parallel.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace tally {

// The CPUs this process may run on (taskset, container cpusets), else all of them.
size_t worker_threads() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) {
    return static_cast<size_t>(CPU_COUNT(&set));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

void run_parallel(size_t count, const std::function<void(size_t task)>& task) {
  if (count == 1) {  // no threads, no affinity call: small results take this path
    task(0);
    return;
  }
  std::vector<std::exception_ptr> errors(count);
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < count; i = next++) {
      try {
        task(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  size_t threads = std::min(worker_threads(), count);
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& thread : pool) thread.join();
  for (auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace tally
