// How much host memory this process may still take, so that work whose size is known up
// front (generating tables, loading files) fails before it starts with what it needs,
// instead of with std::bad_alloc (or the kernel's OOM killer) halfway through.
#pragma once

#include <cstdint>
#include <new>
#include <optional>
#include <string>
#include <string_view>

namespace tally {

struct HostMemoryBudget {
  uint64_t bytes = 0;
  std::string limited_by;  // "available memory", "the address-space limit (ulimit -v)", ...
};

// The smallest of: the system's available memory, the address-space and data-segment
// limits less what the process uses of them, and its cgroup's limit less its usage.
// nullopt when none of them can be read.
std::optional<HostMemoryBudget> host_memory_budget();

// Throws Error(OutOfMemory) "out of memory: <what> needs about N; M is available (limited
// by ...)" when `needed` is more than the budget.
void require_host_memory(uint64_t needed, std::string_view what);

// Runs `work`, turning a std::bad_alloc into Error(OutOfMemory) "<what> ran out of host
// memory": the failed allocation's size is not known there, what was running is.
template <class Work>
auto reporting_out_of_memory(std::string_view what, Work&& work) -> decltype(work());
[[noreturn]] void throw_out_of_memory_while(std::string_view what);

template <class Work>
auto reporting_out_of_memory(std::string_view what, Work&& work) -> decltype(work()) {
  try {
    return work();
  } catch (const std::bad_alloc&) {
    throw_out_of_memory_while(what);
  }
}

}  // namespace tally
