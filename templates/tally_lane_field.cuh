// One field of a lane-transposed bit-packed column (runtime/gpu/device_layout.h), for the
// generated scans (tally_decode.cuh unpack_bits) and for the interpreter's evaluator
// (tally_interp.cuh), which host C++ compiles too. Plain C++ that both compilers read.
#pragma once

#include "tally_host_device.cuh"

namespace tally_lanes {

TALLY_HD unsigned long long lane_word(const unsigned int* p) {
#ifdef __CUDA_ARCH__
  return __ldg(p);
#else
  return *p;
#endif
}

// Field `row` of `bits` (0..64) bits: lane row & 31's stream in block row >> 10, field
// (row >> 5) & 31 of it, whose 32-bit words sit 32 apart.
TALLY_HD unsigned long long lane_field(const unsigned int* words, unsigned long long row,
                                       unsigned int bits) {
  if (bits == 0) return 0;
  const unsigned int bit = (unsigned int)((row >> 5) & 31) * bits;
  const unsigned int* w = words + (row >> 10) * 32 * bits + (bit >> 5) * 32 + (row & 31);
  const unsigned int shift = bit & 31;
  unsigned long long value = lane_word(w);
  if (shift + bits > 32) value |= lane_word(w + 32) << 32;
  value >>= shift;
  if (shift + bits > 64) value |= lane_word(w + 64) << (64 - shift);
  return bits == 64 ? value : value & ((1ull << bits) - 1);
}

}  // namespace tally_lanes
