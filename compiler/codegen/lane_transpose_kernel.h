// The kernel that lane-transposes a bit-packed column on the device after its upload
// (templates/tally_lane_transpose.cuh): one small program of its own, compiled once and kept
// in the kernel caches like a query's, shared by every column of every width.
#pragma once

#include <cstdint>
#include <string>

namespace tally {

inline constexpr const char* kLaneTransposeKernelName = "tally_lane_transpose";
inline constexpr uint32_t kLaneTransposeThreads = 128;  // the kernel's __launch_bounds__

// The program's source. Its arguments: the column's words (u32*), its row count (u64) and
// its field width in bits (u32, 1..64).
std::string lane_transpose_source();

}  // namespace tally
