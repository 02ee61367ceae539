// templates/tally_atomics.cuh against sums, minima and maxima computed on the CPU, with
// many threads hitting few targets (heavy contention) and more targets.
#include <doctest/doctest.h>

#include <limits>
#include <random>

#include "compiler/common/value.h"
#include "tests/gpu/gpu_support.h"

namespace tally::cuda::test {
namespace {

using uint128 = unsigned __int128;

const char* const kAtomicKernels = R"cuda(
#define ADD_KERNEL(T)                                                                 \
  extern "C" __global__ void add_##T(const T* values, u64 n, T* sums, u32 targets) {  \
    for (u64 i = global_thread_index(); i < n; i += grid_stride())                    \
      atomic_add(&sums[i % targets], values[i]);                                      \
  }
#define MINMAX_KERNEL(T)                                                              \
  extern "C" __global__ void minmax_##T(const T* values, u64 n, T* mins, T* maxs,     \
                                        u32 targets) {                                \
    for (u64 i = global_thread_index(); i < n; i += grid_stride()) {                  \
      atomic_min(&mins[i % targets], values[i]);                                      \
      atomic_max(&maxs[i % targets], values[i]);                                      \
    }                                                                                 \
  }
ADD_KERNEL(u32) ADD_KERNEL(i32) ADD_KERNEL(u64) ADD_KERNEL(i64) ADD_KERNEL(f32)
ADD_KERNEL(f64) ADD_KERNEL(i128)
MINMAX_KERNEL(u32) MINMAX_KERNEL(i32) MINMAX_KERNEL(u64) MINMAX_KERNEL(i64) MINMAX_KERNEL(f32)
MINMAX_KERNEL(f64) MINMAX_KERNEL(i128)
)cuda";

Module& atomics_module() { return test_module(kAtomicKernels, "atomics_test.cu"); }

constexpr uint64_t kRows = 1 << 20;
constexpr uint32_t kBlock = 256;

std::mt19937_64& rng() {
  static std::mt19937_64 generator(20150831);
  return generator;
}

// Random 128-bit values that exercise the carry between the halves: full-range values,
// small negatives (high half all ones), and low halves next to 2^64.
int128 random_wide() {
  const uint64_t low = rng()(), high = rng()();
  switch (rng()() % 4) {
    case 0:
      return static_cast<int128>((uint128{high} << 64) | low);
    case 1:
      return -static_cast<int128>(low % 1000000);
    case 2:
      return static_cast<int128>(~uint64_t{0} - low % 3);
    default:
      return static_cast<int128>(low >> 1) * ((high & 1) ? -1 : 1);
  }
}

// For sums, floating-point values are small multiples of 1/4 (f32) or 1/8 (f64): every
// partial sum of kRows of them is exact in the type, so any order of atomic adds gives the
// exact total and the comparison is exact, not a tolerance that could hide lost updates.
template <class T>
std::vector<T> random_values(bool for_sum) {
  std::vector<T> values(kRows);
  for (T& v : values) {
    if constexpr (std::is_same_v<T, int128>) {
      v = random_wide();
    } else if constexpr (std::is_same_v<T, float>) {
      v = for_sum ? static_cast<float>(static_cast<int>(rng()() % 17) - 8) / 4.0f
                  : static_cast<float>(std::uniform_real_distribution<double>(-1e6, 1e6)(rng()));
    } else if constexpr (std::is_same_v<T, double>) {
      v = for_sum ? static_cast<double>(static_cast<int64_t>(rng()() % (1 << 21)) - (1 << 20)) / 8
                  : std::uniform_real_distribution<double>(-1e300, 1e300)(rng());
    } else {
      v = static_cast<T>(rng()());
    }
  }
  return values;
}

// Integer sums wrap modulo 2^bits on the device; do the same on the CPU without signed
// overflow.
template <class T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_same_v<T, int128>) {
    return static_cast<int128>(static_cast<uint128>(a) + static_cast<uint128>(b));
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

std::string text(int128 v) {
  const bool negative = v < 0;
  uint128 u = negative ? -static_cast<uint128>(v) : static_cast<uint128>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  return negative ? "-" + digits : digits;
}
template <class T>
std::string text(T v) {
  return std::to_string(v);
}

template <class T>
void check_add(const char* kernel, uint32_t targets) {
  const std::vector<T> values = random_values<T>(true);
  std::vector<T> expected(targets, T{0});
  for (uint64_t i = 0; i < kRows; ++i) {
    expected[i % targets] = wrapping_add(expected[i % targets], values[i]);
  }
  DeviceBuffer input = to_device(values, "atomic add inputs");
  DeviceBuffer sums = filled_device<T>(targets, T{0}, "atomic add targets");
  launch(atomics_module().kernel(kernel), {grid_for(kRows, kBlock), kBlock}, input.ptr(), kRows,
         sums.ptr(), targets);
  const std::vector<T> actual = from_device<T>(sums);
  for (uint32_t t = 0; t < targets; ++t) {
    INFO(kernel << " target " << t << " of " << targets);
    CHECK_MESSAGE(actual[t] == expected[t], text(actual[t]) << " != " << text(expected[t]));
  }
}

template <class T>
void check_min_max(const char* kernel, uint32_t targets) {
  const std::vector<T> values = random_values<T>(false);
  T highest, lowest;
  if constexpr (std::is_same_v<T, int128>) {
    highest = static_cast<int128>(~uint128{0} >> 1);
    lowest = -highest - 1;
  } else if constexpr (std::is_floating_point_v<T>) {
    highest = std::numeric_limits<T>::infinity();
    lowest = -highest;
  } else {
    highest = std::numeric_limits<T>::max();
    lowest = std::numeric_limits<T>::lowest();
  }
  std::vector<T> expected_min(targets, highest), expected_max(targets, lowest);
  for (uint64_t i = 0; i < kRows; ++i) {
    expected_min[i % targets] = std::min(expected_min[i % targets], values[i]);
    expected_max[i % targets] = std::max(expected_max[i % targets], values[i]);
  }
  DeviceBuffer input = to_device(values, "min/max inputs");
  DeviceBuffer mins = filled_device<T>(targets, highest, "min targets");
  DeviceBuffer maxs = filled_device<T>(targets, lowest, "max targets");
  launch(atomics_module().kernel(kernel), {grid_for(kRows, kBlock), kBlock}, input.ptr(), kRows,
         mins.ptr(), maxs.ptr(), targets);
  const std::vector<T> actual_min = from_device<T>(mins), actual_max = from_device<T>(maxs);
  for (uint32_t t = 0; t < targets; ++t) {
    INFO(kernel << " target " << t << " of " << targets);
    CHECK_MESSAGE(actual_min[t] == expected_min[t], text(actual_min[t])
                                                        << " != " << text(expected_min[t]));
    CHECK_MESSAGE(actual_max[t] == expected_max[t], text(actual_max[t])
                                                        << " != " << text(expected_max[t]));
  }
}

}  // namespace

TEST_CASE("128-bit atomic add from many threads equals the exact sum") {
  for (uint32_t targets : {1u, 3u, 1024u}) check_add<int128>("add_i128", targets);
}

TEST_CASE("integer and floating-point atomic adds equal the CPU sums") {
  for (uint32_t targets : {1u, 37u}) {
    check_add<uint32_t>("add_u32", targets);
    check_add<int32_t>("add_i32", targets);
    check_add<uint64_t>("add_u64", targets);
    check_add<int64_t>("add_i64", targets);
    check_add<float>("add_f32", targets);
    check_add<double>("add_f64", targets);
  }
}

TEST_CASE("atomic min and max equal the CPU minima and maxima") {
  for (uint32_t targets : {1u, 5u, 4096u}) {
    check_min_max<uint32_t>("minmax_u32", targets);
    check_min_max<int32_t>("minmax_i32", targets);
    check_min_max<uint64_t>("minmax_u64", targets);
    check_min_max<int64_t>("minmax_i64", targets);
    check_min_max<float>("minmax_f32", targets);
    check_min_max<double>("minmax_f64", targets);
    check_min_max<int128>("minmax_i128", targets);
  }
}

}  // namespace tally::cuda::test
