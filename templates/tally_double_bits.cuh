// A double's 64 bits and back, on the host and the device alike (tally_arg_pair.cuh's images,
// tally_interp_float.cuh's registers).
#pragma once

#include "tally_host_device.cuh"

#if !defined(__CUDACC_RTC__) && !defined(__CUDACC__)
#include <cstring>
#endif

namespace tally_bits {

TALLY_HD long long double_bits(double d) {
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  return __double_as_longlong(d);
#else
  long long bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
#endif
}

TALLY_HD double double_of_bits(long long bits) {
#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
  return __longlong_as_double(bits);
#else
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
#endif
}

}  // namespace tally_bits
