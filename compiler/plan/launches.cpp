#include "compiler/plan/launches.h"

#include <algorithm>

namespace tally {

const char* kernel_name(KernelId kernel) {
  switch (kernel) {
    case KernelId::Init:
      return "tally_init";
    case KernelId::Scan:
      return "tally_scan";
    case KernelId::ScanM2:
      return "tally_scan_m2";
    case KernelId::Finalize:
      return "tally_finalize";
    case KernelId::ScanCount:
      return "tally_scan_count";
    case KernelId::ScanWrite:
      return "tally_scan_write";
  }
  return "?";
}

std::vector<Launch> aggregation_launches(bool scan_sets_states, bool second_pass) {
  std::vector<Launch> launches;
  if (!scan_sets_states) launches.push_back({KernelId::Init, LaunchGrid::States});
  launches.push_back({KernelId::Scan, LaunchGrid::Scan});
  if (second_pass) launches.push_back({KernelId::ScanM2, LaunchGrid::Scan});
  launches.push_back({KernelId::Finalize, LaunchGrid::States, scan_sets_states && !second_pass});
  return launches;
}

std::vector<Launch> projection_launches() {
  return {{KernelId::ScanCount, LaunchGrid::Scan}, {KernelId::ScanWrite, LaunchGrid::Scan}};
}

bool has_launch(const std::vector<Launch>& launches, KernelId kernel) {
  return std::any_of(launches.begin(), launches.end(),
                     [&](const Launch& l) { return l.kernel == kernel; });
}

}  // namespace tally
