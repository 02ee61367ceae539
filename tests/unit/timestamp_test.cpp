// TIMESTAMP text, arithmetic and parts (compiler/common/timestamp.h, the TIMESTAMP half of
// templates/tally_date_parts.cuh) and INTERVAL text (compiler/common/interval.h): leap years,
// ends of months, negative intervals and times before 1970. Expected values are PostgreSQL's.
#include "compiler/common/timestamp.h"

#include <doctest/doctest.h>

#include <tuple>

#include "compiler/common/interval.h"
#include "compiler/ir/expr.h"
#include "templates/tally_date_parts.cuh"

namespace tally {
namespace {

int64_t ts(const char* text) {
  auto micros = parse_timestamp(text);
  REQUIRE_MESSAGE(micros.has_value(), text);
  return *micros;
}

std::string shifted(const char* text, int64_t months, int64_t days, int64_t micros) {
  auto r = add_to_timestamp(ts(text), months, days, micros);
  return r ? format_timestamp(*r) : "out of range";
}

constexpr int64_t kOneHour = 3'600'000'000;

}  // namespace

TEST_CASE("timestamps: text reads as micros since 1970 - before 1970 negative") {
  CHECK(ts("1970-01-01") == 0);
  CHECK(ts("2024-01-15 10:30:00") == 1'705'314'600'000'000);
  CHECK(ts(" 2024-01-15T10:30 ") == 1'705'314'600'000'000);
  CHECK(ts("1969-07-20 20:17:40") == -14'182'940'000'000);
  CHECK(ts("1969-12-31 23:59:59.999999") == -1);
  CHECK(ts("0001-01-01 00:00:00") == -62'135'596'800'000'000);
  CHECK(ts("9999-12-31 23:59:59.999999") == 253'402'300'799'999'999);
  CHECK(ts("2024-02-29 12:00:00.5") == ts("2024-02-29 12:00:00") + 500'000);
  // A seventh digit rounds (PostgreSQL), into the next second and day if need be.
  CHECK(ts("2024-01-01 00:00:00.1234565") == ts("2024-01-01") + 123'457);
  CHECK(ts("2023-12-31 23:59:59.9999995") == ts("2024-01-01"));
}

TEST_CASE("timestamps: malformed or impossible text is refused") {
  for (const char* bad : {"", "2023-02-29 00:00:00", "2024-01-01 24:00:00", "2024-01-01 10:60:00",
                          "2024-01-01 10:30:60", "2024-01-01 10:30:00Z", "2024-01-01 10:30:00.",
                          "2024-01-01 1:30", "2024-01-01 10", "10000-01-01 00:00:00"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_timestamp(bad).has_value());
  }
}

TEST_CASE("timestamps: printed as PostgreSQL does - the fraction without trailing zeros") {
  CHECK(format_timestamp(0) == "1970-01-01 00:00:00");
  CHECK(format_timestamp(-1) == "1969-12-31 23:59:59.999999");
  CHECK(format_timestamp(500'000) == "1970-01-01 00:00:00.5");
  CHECK(format_timestamp(ts("2000-02-29 23:05:09.012")) == "2000-02-29 23:05:09.012");
  CHECK(format_timestamp(ts("0001-01-01")) == "0001-01-01 00:00:00");
}

TEST_CASE("timestamps: plus months then days then micros - ends of months clamp") {
  CHECK(shifted("2024-01-31 10:00:00", 1, 0, 0) == "2024-02-29 10:00:00");
  CHECK(shifted("2023-01-31 10:00:00", 1, 0, 0) == "2023-02-28 10:00:00");
  CHECK(shifted("2024-01-31 10:00:00", 13, 0, 0) == "2025-02-28 10:00:00");
  CHECK(shifted("2024-01-31 10:00:00", 1, 1, 0) == "2024-03-01 10:00:00");
  CHECK(shifted("2024-03-31 00:30:00", -1, 0, -kOneHour) == "2024-02-28 23:30:00");
  CHECK(shifted("1969-03-31 10:00:00", -1, 0, 0) == "1969-02-28 10:00:00");
  CHECK(shifted("1970-01-01 00:00:00", 0, 0, -1) == "1969-12-31 23:59:59.999999");
  CHECK(shifted("2000-02-28 23:00:00", 0, 0, 2 * kOneHour) == "2000-02-29 01:00:00");
  CHECK(shifted("1900-02-28 23:00:00", 0, 0, 2 * kOneHour) == "1900-03-01 01:00:00");
  CHECK(shifted("2024-01-01 00:00:00", 0, -1, 2 * kOneHour) == "2023-12-31 02:00:00");
}

TEST_CASE("timestamps: results past 0001-01-01 or 9999-12-31 are out of range") {
  CHECK(shifted("9999-12-31 23:00:00", 0, 0, 2 * kOneHour) == "out of range");
  CHECK(shifted("0001-01-01 00:00:00", 0, 0, -1) == "out of range");
  CHECK(shifted("2024-01-01 00:00:00", INT64_MAX, 0, 0) == "out of range");
  CHECK(shifted("2024-01-01 00:00:00", 0, INT64_MIN, INT64_MIN) == "out of range");
  CHECK_FALSE(timestamp_from_date(-719163).has_value());  // 0000-12-31
  CHECK(timestamp_from_date(-1) == -86'400'000'000);
  CHECK(date_of_timestamp(-1) == -1);
  CHECK(date_of_timestamp(ts("2024-03-10 23:59:59")) == 19792);
}

TEST_CASE("timestamps: fields and truncation floor before 1970") {
  using tally_dates::timestamp_field;
  using tally_dates::timestamp_trunc;
  CHECK(timestamp_field(-1, kHour) == 23);
  CHECK(timestamp_field(-1, kMinute) == 59);
  CHECK(timestamp_field(-1, kSecond) == 59);
  CHECK(timestamp_field(-1, kMillisecond) == 59'999);
  CHECK(timestamp_field(-1, kMicrosecond) == 59'999'999);
  CHECK(timestamp_field(-1, kEpoch) == -1);
  CHECK(timestamp_field(-1, kYear) == 1969);
  CHECK(timestamp_field(-1, kDay) == 31);
  CHECK(timestamp_field(ts("1969-07-20 20:17:40"), kDow) == 0);  // a Sunday
  CHECK(timestamp_field(ts("1969-07-20 20:17:40"), kEpoch) == -14'182'940);
  CHECK(timestamp_trunc(-1, kUnitHour) == -kOneHour);
  CHECK(timestamp_trunc(-1, kUnitSecond) == -1'000'000);
  CHECK(timestamp_trunc(-1, kUnitMillisecond) == -1'000);
  CHECK(timestamp_trunc(-1, kUnitDay) == ts("1969-12-31"));
  CHECK(timestamp_trunc(ts("2024-02-29 13:14:15"), kUnitMonth) == ts("2024-02-01"));
  CHECK(timestamp_trunc(ts("2024-01-17 12:00:00"), kUnitWeek) == ts("2024-01-15"));
  CHECK(timestamp_trunc(ts("2024-05-17 12:34:56.7"), kUnitMinute) == ts("2024-05-17 12:34:00"));
}

TEST_CASE("intervals: PostgreSQL's text - units - clock times - signs") {
  auto parts = [](const char* text) {
    IntervalParse p = parse_interval(text);
    REQUIRE_MESSAGE(p.parts.has_value(), text);
    return std::tuple{p.parts->months, p.parts->days, p.parts->micros};
  };
  CHECK(parts("3 days") == std::tuple{0, 3, 0});
  CHECK(parts("1 year 2 mons -3 days") == std::tuple{14, -3, 0});
  CHECK(parts("1 day -02:30") == std::tuple{0, 1, -9'000'000'000});
  CHECK(parts("1 week 36 hours") == std::tuple{0, 7, 36 * kOneHour});
  CHECK(parts("10 ms 5 microseconds") == std::tuple{0, 0, 10'005});
  CHECK(interval_of(2, "HOUR").parts->micros == 2 * kOneHour);
  CHECK(interval_of(-5, "seconds").parts->micros == -5'000'000);
  CHECK(interval_of(3, "Years").parts->months == 36);
  CHECK_FALSE(interval_of(INT64_MAX, "week").parts.has_value());
  CHECK(parse_interval("3 fortnights").unknown_unit);
  CHECK(parse_interval("3 fortnights").bad_piece == "fortnights");
  for (const char* bad : {"", "3", "1.5 days", "day", "1 day 10:75", "9223372036854775807 hours",
                          "9223372036854775807 days 1 day"}) {
    CAPTURE(bad);
    CHECK_FALSE(parse_interval(bad).parts.has_value());
  }
}

}  // namespace tally
