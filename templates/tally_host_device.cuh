// TALLY_HD: functions that host C++ and NVRTC both compile from the same header
// (tally_finals.cuh, tally_date_parts.cuh), inlined on either side.
#pragma once

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define TALLY_HD __host__ __device__ __forceinline__
#else
#define TALLY_HD inline
#endif
