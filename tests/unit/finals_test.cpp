// templates/tally_finals.cuh: AVG of exact sums, which both engines compute with the same
// function. Its 64-bit path (a scaled sum within int64) must give exactly what 128-bit
// division gives, at the edges of that range and for both signs.
#include <doctest/doctest.h>

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

}  // namespace
}  // namespace tally
