// templates/tally_finals.cuh: AVG of exact sums, which both engines compute with the same
// function. Its 64-bit path (a scaled sum within int64) must give exactly what 128-bit
// division gives, at the edges of that range and for both signs. And the GPU's split
// variance state: its three sums rebuild the sum of squares the host keeps in 256 bits.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "templates/tally_finals.cuh"

namespace tally {
namespace {

using tally_finals::i128;

// The rounding rule in 128 bits only: truncated quotient, then half away from zero.
i128 reference_average(i128 num, long long n) {
  i128 q = num / n;
  i128 r = num % n;
  i128 ar = r < 0 ? -r : r;
  if (2 * ar >= static_cast<i128>(n)) q += num < 0 ? -1 : 1;
  return q;
}

i128 average(i128 sum, long long n, int in_scale = 0, int out_scale = 0) {
  i128 out = 0;
  REQUIRE(tally_finals::average_exact(sum, n, in_scale, out_scale, &out));
  return out;
}

TEST_CASE("average_exact rounds half away from zero") {
  CHECK(average(5, 2) == 3);
  CHECK(average(-5, 2) == -3);
  CHECK(average(7, 3) == 2);
  CHECK(average(-7, 3) == -2);
  CHECK(average(8, 3) == 3);
  CHECK(average(-8, 3) == -3);
  CHECK(average(1, 2, 2, 6) == 5000);  // 0.01 / 2 = 0.005000 at scale 6
}

TEST_CASE("average_exact: the 64-bit path agrees with 128-bit division at its edges") {
  const i128 max64 = static_cast<i128>(0x7fffffffffffffffll);
  const std::vector<i128> sums = {0,          1,          -1,        max64,      -max64,
                                  max64 - 1,  -max64 + 1, max64 + 1, -max64 - 1, max64 * 3,
                                  -max64 * 3, max64 / 2,  -max64 / 2};
  const std::vector<long long> counts = {
      1, 2, 3, 7, 1000003, 0x7fffffffffffffffll, 0x4000000000000000ll};
  for (i128 sum : sums) {
    for (long long n : counts) {
      CAPTURE(static_cast<double>(sum));
      CAPTURE(n);
      CHECK(average(sum, n) == reference_average(sum, n));
    }
  }
}

TEST_CASE("average_exact scales before dividing and reports 128-bit overflow") {
  // 922337203685477580.7 * 10 is past int64: the division takes the 128-bit path.
  CHECK(average(9223372036854775807ll, 3, 1, 2) ==
        reference_average(i128{9223372036854775807ll} * 10, 3));
  i128 out = 0;
  const i128 huge = static_cast<i128>(~static_cast<unsigned __int128>(0) >> 2);
  CHECK_FALSE(tally_finals::average_exact(huge, 1, 0, 4, &out));
}

bool same(const tally_finals::I256& a, const tally_finals::I256& b) {
  for (int i = 0; i < 4; ++i) {
    if (a.w[i] != b.w[i]) return false;
  }
  return true;
}

// Values of up to `top` bits in magnitude, both signs, split at (top + 1) / 2 as the planner
// does: the three sums give the exact sum of squares, and the variance the same bits.
void check_split(int top, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const int bits = (top + 1) / 2;
  i128 sum = 0, high = 0, cross = 0, low = 0;
  tally_finals::I256 squares = tally_finals::i256_from(0);
  const long long n = 1000;
  for (long long i = 0; i < n; ++i) {
    const auto magnitude = (static_cast<tally_finals::u128>(rng()) << 64 | rng()) >> (128 - top);
    const i128 x = rng() % 2 ? -static_cast<i128>(magnitude) : static_cast<i128>(magnitude);
    const i128 h = tally_finals::split_high(x, bits), l = tally_finals::split_low(x, bits);
    REQUIRE(l >= 0);
    REQUIRE(h * (static_cast<i128>(1) << bits) + l == x);
    if (top <= 62) {  // the 64-bit overloads the Scan takes for such values
      const auto x64 = static_cast<long long>(x);
      CHECK(tally_finals::split_high(x64, bits) == h);
      CHECK(tally_finals::split_low(x64, bits) == l);
    }
    sum += x;
    high += h * h;
    cross += h * l;
    low += l * l;
    squares = tally_finals::i256_add(squares, tally_finals::i256_mul(x, x));
  }
  CHECK(same(tally_finals::split_square_sum(high, cross, low, bits), squares));
  double wide = 0;
  REQUIRE(tally_finals::variance_exact_wide(n, sum, squares, 4, &wide));
  CHECK(tally_finals::variance_split(n, sum, high, cross, low, bits, 4) == wide);
  CHECK(wide > 0);
}

TEST_CASE("split variance states rebuild the exact sum of squares") {
  for (int top : {20, 61, 62, 63, 64, 77, 100, 115}) check_split(top, 40 + top);
}

TEST_CASE("variance_exact_wide gives variance_exact's bits where squares fit 128 bits") {
  const i128 sum = 1234567890123, sumsq = static_cast<i128>(98765432109876543) * 1000003;
  double wide = 0;
  REQUIRE(tally_finals::variance_exact_wide(7, sum, tally_finals::i256_from(sumsq), 2, &wide));
  CHECK(wide == tally_finals::variance_exact(7, sum, sumsq, 2));
  // n times a sum of squares near 2^255 passes 255 bits: refused, not wrapped.
  const tally_finals::I256 huge = {{0, 0, 0, 0x4000000000000000ull}};
  CHECK_FALSE(tally_finals::variance_exact_wide(4, 0, huge, 0, &wide));
}

}  // namespace
}  // namespace tally
