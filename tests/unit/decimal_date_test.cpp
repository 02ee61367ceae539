#include <doctest/doctest.h>

#include "compiler/common/date.h"
#include "compiler/common/decimal.h"
#include "templates/tally_date_parts.cuh"

using namespace tally;

TEST_CASE("decimal: parse at a scale - rounding half away from zero") {
  CHECK(*parse_decimal("12.5", 15, 2) == 1250);
  CHECK(*parse_decimal("-0.07", 15, 2) == -7);
  CHECK(*parse_decimal("3", 15, 2) == 300);
  CHECK(*parse_decimal(".5", 5, 1) == 5);
  CHECK(*parse_decimal("1.005", 15, 2) == 101);
  CHECK(*parse_decimal("1.004", 15, 2) == 100);
  CHECK(*parse_decimal("-1.005", 15, 2) == -101);
  CHECK_FALSE(parse_decimal("1x", 15, 2).has_value());
  CHECK_FALSE(parse_decimal("", 15, 2).has_value());
  CHECK_FALSE(parse_decimal("1.2.3", 15, 2).has_value());
  CHECK_FALSE(parse_decimal("1000", 5, 2).has_value());  // 1000.00 needs 6 digits
  CHECK(*parse_decimal("999.99", 5, 2) == 99999);
}

TEST_CASE("decimal: format and 128-bit edges") {
  CHECK(format_decimal(1250, 2) == "12.50");
  CHECK(format_decimal(-7, 2) == "-0.07");
  CHECK(format_decimal(5, 0) == "5");
  CHECK(format_decimal(0, 3) == "0.000");
  int128 big = pow10_128(38) - 1;
  CHECK(int128_to_string(big) == std::string(38, '9'));
  CHECK(int128_to_string(-big) == "-" + std::string(38, '9'));
  CHECK_FALSE(checked_mul(big, 10).has_value());
  CHECK(fits_precision(big, 38));
  CHECK_FALSE(fits_precision(big, 37));
  CHECK(div_round(7, 2) == 4);
  CHECK(div_round(-7, 2) == -4);
  CHECK(div_round(5, 3) == 2);
  CHECK(div_round(4, 3) == 1);
  CHECK(downscale_round(12345, 2) == 123);
  CHECK(downscale_round(12350, 2) == 124);
  auto shape = decimal_literal_shape("012.50");
  CHECK(shape.first == 2);
  CHECK(shape.second == 2);
}

// Spelled 19 digits at a time: the zeros inside a chunk and at its edges must survive.
TEST_CASE("decimal: text across 64-bit chunks - zeros kept inside and dropped in front") {
  const int128 chunk = pow10_128(19);
  CHECK(int128_to_string(chunk) == "1" + std::string(19, '0'));
  CHECK(int128_to_string(chunk - 1) == std::string(19, '9'));
  CHECK(int128_to_string(chunk + 5) == "1" + std::string(18, '0') + "5");
  CHECK(int128_to_string(-(chunk * chunk)) == "-1" + std::string(38, '0'));
  const int128 lowest = static_cast<int128>(static_cast<unsigned __int128>(1) << 127);
  CHECK(int128_to_string(lowest) == "-170141183460469231731687303715884105728");
  CHECK(int128_to_string(-(lowest + 1)) == "170141183460469231731687303715884105727");
  CHECK(format_decimal(chunk + 7, 2) == "100000000000000000.07");
  CHECK(format_decimal(-(chunk * 3), 20) == "-0.30000000000000000000");
  CHECK(format_decimal(12, 5) == "0.00012");
}

TEST_CASE("decimal: HUGEINT text - the whole int128 range and no more") {
  const int128 max = static_cast<int128>(~static_cast<unsigned __int128>(0) >> 1);
  bool out_of_range = false;
  CHECK(*parse_int128("170141183460469231731687303715884105727", &out_of_range) == max);
  CHECK(*parse_int128("-170141183460469231731687303715884105728", &out_of_range) == -max - 1);
  CHECK(*parse_int128(" +42 ", &out_of_range) == 42);
  CHECK(*parse_int128("-0", &out_of_range) == 0);
  CHECK_FALSE(out_of_range);
  for (const char* past :
       {"170141183460469231731687303715884105728", "-170141183460469231731687303715884105729",
        "99999999999999999999999999999999999999999999"}) {
    INFO(past);
    CHECK_FALSE(parse_int128(past, &out_of_range).has_value());
    CHECK(out_of_range);
  }
  for (const char* bad : {"", "+", "-", "1.5", "1e3", "12a", "1 2", "--1"}) {
    INFO(bad);
    CHECK_FALSE(parse_int128(bad, &out_of_range).has_value());
    CHECK_FALSE(out_of_range);
  }
}

TEST_CASE("date: civil conversions - parsing and month arithmetic") {
  CHECK(days_from_civil(1970, 1, 1) == 0);
  CHECK(days_from_civil(2000, 3, 1) == 11017);
  CHECK(*parse_date("1998-12-01") == days_from_civil(1998, 12, 1));
  CHECK(format_date(*parse_date("1992-02-29")) == "1992-02-29");
  CHECK_FALSE(parse_date("1993-02-29").has_value());
  CHECK_FALSE(parse_date("1998-13-01").has_value());
  CHECK_FALSE(parse_date("98-12-01").has_value());
  CHECK(format_date(add_months(*parse_date("2024-01-31"), 1)) == "2024-02-29");
  CHECK(format_date(add_months(*parse_date("2024-03-31"), -13)) == "2023-02-28");
  for (int32_t d = -800000; d < 800000; d += 997) {
    CivilDate c = civil_from_days(d);
    CHECK(days_from_civil(c.year, c.month, c.day) == d);
  }
}

TEST_CASE("dates: the 32-bit civil steps the GPU runs equal the 64-bit ones") {
  // tally_dates::ymd_from_days32 is the fast path of the kernels' civil_from_days
  // (templates/tally_sql.cuh); period_index32 shares its steps (march_date32).
  const int64_t first = -719468, last = 0x7fffffffLL - 719468;
  int64_t checked = 0, differing = 0, first_differing = 0;
  auto check = [&](int64_t d) {
    const tally_dates::Ymd fast = tally_dates::ymd_from_days32(d);
    const tally_dates::Ymd wide = tally_dates::ymd_from_days(d);
    ++checked;
    if (fast.year == wide.year && fast.month == wide.month && fast.day == wide.day) return;
    if (differing++ == 0) first_differing = d;
  };
  for (int64_t d = first; d <= 3000000; ++d) check(d);  // 0000-03-01 to 10183
  for (int64_t d = first; d <= last; d += 104729) check(d);
  for (int64_t d = last - 1000; d <= last; ++d) check(d);
  INFO("first differing day " << first_differing);
  CHECK(checked > 3700000);
  CHECK(differing == 0);
}
