// templates/tally_reduce.cuh: warp sums, minima and maxima (i32, i64, f64, i128) equal the
// CPU's over each group of 32 consecutive values.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "compiler/common/value.h"
#include "tests/gpu/gpu_support.h"

namespace tally::cuda::test {
namespace {

const char* const kReduceKernels = R"cuda(
#define WARP_REDUCE(T)                                                                    \
  extern "C" __global__ void warp_reduce_##T(const T* values, u64 n, T* sums, T* mins,    \
                                             T* maxs) {                                   \
    const u64 i = global_thread_index();                                                  \
    const T v = i < n ? values[i] : (T)0;                                                 \
    const T s = warp_sum(v), lo = warp_min(v), hi = warp_max(v);                          \
    if (is_lane_zero() && i < n) {                                                        \
      sums[i / 32] = s;                                                                   \
      mins[i / 32] = lo;                                                                  \
      maxs[i / 32] = hi;                                                                  \
    }                                                                                     \
  }
WARP_REDUCE(i32) WARP_REDUCE(i64) WARP_REDUCE(f64) WARP_REDUCE(i128)
)cuda";

Module& reduce_module() { return test_module(kReduceKernels, "reduce_test.cu"); }

// n is a multiple of 32, so every warp is full of data.
template <class T>
void check_warp_reduce(const char* kernel, const std::vector<T>& values) {
  INFO(kernel);
  const uint64_t n = values.size(), warps = n / 32;
  std::vector<T> sums(warps, T{0}), mins(warps), maxs(warps);
  for (uint64_t w = 0; w < warps; ++w) {
    mins[w] = maxs[w] = values[w * 32];
    for (uint64_t i = w * 32; i < w * 32 + 32; ++i) {
      sums[w] += values[i];
      mins[w] = std::min(mins[w], values[i]);
      maxs[w] = std::max(maxs[w], values[i]);
    }
  }
  DeviceBuffer input = to_device(values, "values");
  DeviceBuffer out_sums(warps * sizeof(T), "sums"), out_mins(warps * sizeof(T), "mins"),
      out_maxs(warps * sizeof(T), "maxs");
  const uint32_t block = 256;
  launch(reduce_module().kernel(kernel), {static_cast<uint32_t>((n + block - 1) / block), block},
         input.ptr(), n, out_sums.ptr(), out_mins.ptr(), out_maxs.ptr());
  CHECK(from_device<T>(out_sums) == sums);
  CHECK(from_device<T>(out_mins) == mins);
  CHECK(from_device<T>(out_maxs) == maxs);
}

}  // namespace

TEST_CASE("warp reductions equal the CPU over each warp's values") {
  std::mt19937_64 rng(11);
  const size_t n = 32 * 4096;
  std::vector<int32_t> ints(n);
  std::vector<int64_t> bigs(n);
  std::vector<double> doubles(n);
  std::vector<int128> wides(n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = rng();
    ints[i] = static_cast<int32_t>(r % 2000001) - 1000000;        // no overflow in 32 sums
    bigs[i] = static_cast<int64_t>(r >> 8) - (int64_t{1} << 55);  // nor in 64-bit sums
    // Integers below 2^40: every partial sum is exact, so the shuffle order cannot matter.
    doubles[i] =
        static_cast<double>(static_cast<int64_t>(r % (uint64_t{1} << 41)) - (int64_t{1} << 40));
    // Around +-2^100: sums carry across the 64-bit halves.
    wides[i] = (static_cast<int128>(static_cast<int64_t>(rng()) >> 28) << 64) | rng();
  }
  check_warp_reduce("warp_reduce_i32", ints);
  check_warp_reduce("warp_reduce_i64", bigs);
  check_warp_reduce("warp_reduce_f64", doubles);
  check_warp_reduce("warp_reduce_i128", wides);
}

}  // namespace tally::cuda::test
