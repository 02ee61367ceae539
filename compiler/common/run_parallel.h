// Runs independent tasks on all the CPUs the process may use (std::thread): the loaders,
// the generators, uploads and the host finish of large results.
#pragma once

#include <cstddef>
#include <functional>

namespace tally {

// Threads the parallel helpers use: the CPUs this process may run on, at least 1.
size_t worker_threads();

// Runs task(0) .. task(count - 1), each exactly once, on up to worker_threads() threads.
// If tasks throw, the exception of the lowest-numbered failing task is rethrown after all
// have finished, so the error reported does not depend on scheduling.
void run_parallel(size_t count, const std::function<void(size_t task)>& task);

}  // namespace tally
