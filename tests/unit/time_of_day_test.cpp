// TIME text and arithmetic (compiler/common/time_of_day.h), TIMESTAMPTZ text with UTC
// offsets (compiler/common/timestamp.h) and the TIME fields of templates/tally_date_parts.cuh.
// Expected values are PostgreSQL's at TimeZone UTC.
#include "compiler/common/time_of_day.h"

#include <doctest/doctest.h>

#include "compiler/common/timestamp.h"
#include "compiler/ir/expr.h"
#include "templates/tally_date_parts.cuh"

namespace tally {
namespace {

constexpr int64_t kOneHour = 3'600'000'000;

std::string time_text(const char* text) {
  auto micros = parse_time(text);
  return micros ? format_time(*micros) : "malformed";
}

std::string zoned_text(const char* text) {
  auto micros = parse_timestamptz(text);
  return micros ? format_timestamptz(*micros) : "malformed";
}

}  // namespace

TEST_CASE("TIME text: hh:mm[:ss[.f]] and 24:00:00 - fractions round at the seventh digit") {
  CHECK(time_text("10:30") == "10:30:00");
  CHECK(time_text(" 23:59:59.999999 ") == "23:59:59.999999");
  CHECK(time_text("00:00:00.1234565") == "00:00:00.123457");
  CHECK(time_text("24:00") == "24:00:00");
  CHECK(time_text("24:00:00.000") == "24:00:00");
  CHECK(*parse_time("24:00:00") == kMicrosPerDay);
  for (const char* bad : {"24:00:00.5", "25:00", "10:60", "10:30:60", "1:30", "10", "", "x"}) {
    CHECK_MESSAGE(time_text(bad) == "malformed", bad);
  }
}

TEST_CASE("TIME arithmetic: wraps around midnight both ways - a timestamp's time of day") {
  CHECK(format_time(add_to_time(*parse_time("23:00"), 2 * kOneHour)) == "01:00:00");
  CHECK(format_time(add_to_time(*parse_time("01:00"), -2 * kOneHour)) == "23:00:00");
  CHECK(format_time(add_to_time(kMicrosPerDay, 0)) == "00:00:00");
  CHECK(format_time(add_to_time(*parse_time("10:00"), -3 * kMicrosPerDay - 1)) ==
        "09:59:59.999999");
  CHECK(format_time(time_of_timestamp(*parse_timestamp("1969-12-31 23:00:00.5"))) == "23:00:00.5");
}

TEST_CASE("TIMESTAMPTZ text: offsets convert to UTC - printed with +00") {
  CHECK(zoned_text("2024-01-15 10:30:00") == "2024-01-15 10:30:00+00");
  CHECK(zoned_text("2024-01-15 10:30:00+02") == "2024-01-15 08:30:00+00");
  CHECK(zoned_text("2024-01-15 10:30:00 -05:30") == "2024-01-15 16:00:00+00");
  CHECK(zoned_text("2024-01-01 01:00:00.25+0200") == "2023-12-31 23:00:00.25+00");
  CHECK(zoned_text("2024-01-15T10:30:00Z") == "2024-01-15 10:30:00+00");
  CHECK(zoned_text("2024-01-15 10:30:00 UTC") == "2024-01-15 10:30:00+00");
  CHECK(zoned_text("2024-01-15") == "2024-01-15 00:00:00+00");
  CHECK(zoned_text("9999-12-31 23:00:00-02") == "malformed");  // past 9999-12-31 in UTC
  for (const char* bad : {"2024-01-15 10:30:00+", "2024-01-15 10:30:00+16", "2024-01-15 10:30+2",
                          "2024-01-15 10:30:00+02:60", "2024-01-15 10:30:00+02x"}) {
    CHECK_MESSAGE(zoned_text(bad) == "malformed", bad);
  }
}

TEST_CASE("TIME fields: HOUR of 24:00:00 is 24 - EPOCH counts the day's seconds") {
  const int64_t t = *parse_time("10:31:05.25");
  CHECK(tally_dates::time_field(t, kHour) == 10);
  CHECK(tally_dates::time_field(t, kMinute) == 31);
  CHECK(tally_dates::time_field(t, kSecond) == 5);
  CHECK(tally_dates::time_field(t, kMillisecond) == 5'250);
  CHECK(tally_dates::time_field(t, kMicrosecond) == 5'250'000);
  CHECK(tally_dates::time_field(t, kEpoch) == 37'865);
  CHECK(tally_dates::time_field(kMicrosPerDay, kHour) == 24);
  CHECK(tally_dates::time_field(kMicrosPerDay, kEpoch) == 86'400);
}

}  // namespace tally
