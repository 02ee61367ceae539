// What the benchmarks share: medians, device-event timing of a launch, and the read
// bandwidth that every floor divides by.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace tally::bench {

double median(std::vector<double> v);

// The whole text of a file ("" when it cannot be read).
std::string read_file(const std::string& path);

// Median device time of `launch` over `reps` runs after two warm-up runs; `reset` runs
// before each, outside the timed region.
double median_kernel_ms(int reps, const std::function<void()>& reset,
                        const std::function<void()>& launch);

// Read bandwidth of device 0 in GB/s over a buffer much larger than L2 (int4 loads, 4 GiB),
// the median of `reps` runs; compiled with NVRTC.
double measure_read_bandwidth(int reps, int sm_count);

}  // namespace tally::bench
