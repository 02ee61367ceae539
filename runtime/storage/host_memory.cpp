#include "runtime/storage/host_memory.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <fstream>
#include <sstream>

#include "compiler/common/byte_size.h"
#include "compiler/common/error.h"

namespace tally {

namespace {

// A "Key:   123 kB" line of /proc/meminfo or /proc/self/status, in bytes.
std::optional<uint64_t> kib_field(const char* file, std::string_view key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with(key) || line.size() <= key.size() || line[key.size()] != ':') continue;
    std::istringstream fields(line.substr(key.size() + 1));
    uint64_t kib = 0;
    if (fields >> kib) return kib * 1024;
  }
  return std::nullopt;
}

// A single number in a file ("max" and unreadable files give nullopt).
std::optional<uint64_t> number_in(const std::string& file) {
  std::ifstream in(file);
  uint64_t value = 0;
  if (in >> value) return value;
  return std::nullopt;
}

// The process's cgroup v2 folder, from the "0::/path" line of /proc/self/cgroup.
std::string cgroup_folder() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with("0::")) return "/sys/fs/cgroup" + line.substr(3);
  }
  return {};
}

// What a resource limit leaves of it, given what the process uses now.
std::optional<uint64_t> limit_left(int resource, std::optional<uint64_t> used) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY || !used) {
    return std::nullopt;
  }
  return limit.rlim_cur > *used ? limit.rlim_cur - *used : 0;
}

void take_smaller(std::optional<HostMemoryBudget>& budget, std::optional<uint64_t> bytes,
                  const char* limited_by) {
  if (bytes && (!budget || *bytes < budget->bytes)) budget = HostMemoryBudget{*bytes, limited_by};
}

}  // namespace

std::optional<HostMemoryBudget> host_memory_budget() {
  std::optional<HostMemoryBudget> budget;
  take_smaller(budget, kib_field("/proc/meminfo", "MemAvailable"), "the memory available");
  take_smaller(budget, limit_left(RLIMIT_AS, kib_field("/proc/self/status", "VmSize")),
               "the address-space limit, ulimit -v");
  take_smaller(budget, limit_left(RLIMIT_DATA, kib_field("/proc/self/status", "VmData")),
               "the data-segment limit, ulimit -d");
  if (std::string cgroup = cgroup_folder(); !cgroup.empty()) {
    std::optional<uint64_t> max = number_in(cgroup + "/memory.max");
    std::optional<uint64_t> current = number_in(cgroup + "/memory.current");
    if (max && current) {
      take_smaller(budget, *max > *current ? *max - *current : 0, "the cgroup's memory.max");
    }
  }
  return budget;
}

void require_host_memory(uint64_t needed, std::string_view what) {
  std::optional<HostMemoryBudget> budget = host_memory_budget();
  if (!budget || needed <= budget->bytes) return;
  throw Error(ErrorKind::OutOfMemory,
              fmt::format("{} needs about {}; {} is available ({})", what, format_bytes(needed),
                          format_bytes(budget->bytes), budget->limited_by));
}

void throw_out_of_memory_while(std::string_view what) {
  throw Error(ErrorKind::OutOfMemory, fmt::format("{} ran out of host memory", what));
}

}  // namespace tally
