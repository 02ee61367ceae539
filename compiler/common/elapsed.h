// Wall-clock milliseconds since a steady_clock time point, for the --timing splits.
#pragma once

#include <chrono>

namespace tally {

inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace tally
