// TALLY_HD: functions that host C++ and NVRTC both compile from the same header
// (tally_finals.cuh, tally_date_parts.cuh), inlined on either side (TALLY_HD_OUTLINED: not
// on the device).
#pragma once

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define TALLY_HD __host__ __device__ __forceinline__
// A Finalizer's function with 128-bit divisions, called for several aggregates of a group:
// one copy in the kernel instead of one per call halves NVRTC's time for such Finalizers.
#define TALLY_HD_OUTLINED __host__ __device__ __noinline__
#else
#define TALLY_HD inline
#define TALLY_HD_OUTLINED inline
#endif
