// INTERVAL values (compiler/common/interval_value.h) and their arithmetic
// (compiler/common/interval_math.h): the 128-bit packing, PostgreSQL's text both ways, the
// span that orders them, and the spill-down rules of * and /. Expected values are
// PostgreSQL's.
#include <doctest/doctest.h>

#include "compiler/common/interval_math.h"
#include "compiler/common/timestamp.h"

namespace tally {
namespace {

constexpr int64_t kHour = 3'600'000'000;

std::string text_of(const char* text) {
  auto iv = parse_interval_value(text);
  return iv ? format_interval(*iv) : "malformed";
}

std::string shown(std::optional<Interval> iv) { return iv ? format_interval(*iv) : "out of range"; }

}  // namespace

TEST_CASE("INTERVAL packing keeps every part and its sign") {
  for (const Interval iv :
       {Interval{0, 0, 0}, Interval{-1, -1, -1}, Interval{INT32_MAX, INT32_MIN, INT64_MIN},
        Interval{INT32_MIN, INT32_MAX, INT64_MAX}, Interval{14, -3, 7 * kHour}}) {
    CHECK(unpack_interval(pack_interval(iv)) == iv);
  }
}

TEST_CASE("INTERVAL text: PostgreSQL's default style both ways") {
  CHECK(text_of("1 year 2 months 3 days 04:05:06") == "1 year 2 mons 3 days 04:05:06");
  CHECK(text_of("0 days") == "00:00:00");
  CHECK(text_of("-1 days 02:00:00") == "-1 days +02:00:00");
  CHECK(text_of("-14 months") == "-1 years -2 mons");
  CHECK(text_of("1 mon -1 days") == "1 mon -1 days");
  CHECK(text_of("100 hours") == "100:00:00");
  CHECK(text_of("00:00:01.5") == "00:00:01.5");
  CHECK(text_of("00:00:00.0000005") == "00:00:00.000001");  // a seventh digit rounds
  CHECK(text_of("-00:00:00.25") == "-00:00:00.25");
  CHECK(text_of("2 weeks 1 ms") == "14 days 00:00:00.001");
  CHECK(text_of("1.5 days") == "malformed");
  CHECK(text_of("1:30.5") == "malformed");
  CHECK(text_of("2147483648 days") == "malformed");
  // The extreme time part has no positive int64: printed from its magnitude.
  CHECK(format_interval({0, 0, INT64_MIN}) == "-2562047788:00:54.775808");
}

TEST_CASE("INTERVAL span: 30-day months and 24-hour days order and equate intervals") {
  CHECK(interval_span({0, 1, 0}) == interval_span({0, 0, 24 * kHour}));
  CHECK(interval_span({1, 0, 0}) == interval_span({0, 30, 0}));
  CHECK(interval_span({0, -1, 2 * kHour}) < 0);
  CHECK(interval_of_span(interval_span({1, 2, 3})) == Interval{0, 32, 3});
}

TEST_CASE("INTERVAL arithmetic: parts add apart - products and quotients spill down") {
  CHECK(shown(add_intervals({0, 1, 0}, {0, 0, 2 * kHour})) == "1 day 02:00:00");
  CHECK(shown(subtract_intervals({1, 0, 0}, {0, 1, 0})) == "1 mon -1 days");
  CHECK(shown(negate_interval({0, 1, 2 * kHour})) == "-1 days -02:00:00");
  CHECK(shown(negate_interval({INT32_MIN, 0, 0})) == "out of range");
  CHECK(shown(add_intervals({0, 2'000'000'000, 0}, {0, 2'000'000'000, 0})) == "out of range");
  CHECK(shown(multiply_interval({1, 0, 0}, 1.5)) == "1 mon 15 days");
  CHECK(shown(multiply_interval({0, 3, 0}, 0.5)) == "1 day 12:00:00");
  CHECK(shown(multiply_interval({1, 0, 0}, 0.1)) == "3 days");
  CHECK(shown(multiply_interval({0, 0, kHour}, -2)) == "-02:00:00");
  CHECK(shown(divide_interval({1, 0, 0}, 2)) == "15 days");
  CHECK(shown(divide_interval({0, 1, 0}, 3)) == "08:00:00");
  CHECK(shown(divide_interval({12, 0, 0}, 5)) == "2 mons 12 days");
  CHECK(shown(divide_interval({0, -1, 7'201'500'000}, 2)) == "-10:59:59.25");
  CHECK(shown(multiply_interval({INT32_MAX, 0, 0}, 2)) == "out of range");
}

TEST_CASE("INTERVAL of a timestamp difference: days and time of one sign") {
  CHECK(shown(timestamp_difference(26 * kHour, 0)) == "1 day 02:00:00");
  CHECK(shown(timestamp_difference(0, 26 * kHour)) == "-1 days -02:00:00");
  CHECK(shown(timestamp_difference(kMicrosPerDay * 60, 0)) == "60 days");
  CHECK(shown(timestamp_difference(500'000, 0)) == "00:00:00.5");
}

}  // namespace tally
