// TIMESTAMP values: microseconds since 1970-01-01 00:00:00 (proleptic Gregorian, no time
// zone), as PostgreSQL and DuckDB count them. Valid from 0001-01-01 00:00:00 to
// 9999-12-31 23:59:59.999999, the years a DATE literal takes; every producer checks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tally {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

// "yyyy-mm-dd[( |T)hh:mm[:ss[.fraction]]]", spaces around allowed; a fraction past six
// digits rounds to the microsecond (PostgreSQL). nullopt when malformed or out of range.
std::optional<int64_t> parse_timestamp(std::string_view text);

// "yyyy-mm-dd hh:mm:ss[.ffffff]", the fraction without trailing zeros (PostgreSQL, DuckDB).
std::string format_timestamp(int64_t micros);

// TIMESTAMP WITH TIME ZONE text: parse_timestamp's form and an optional UTC offset ("+02",
// "-05:30", "+0530", "Z", "UTC"), converted to UTC; no offset is the session zone, UTC.
std::optional<int64_t> parse_timestamptz(std::string_view text);

// format_timestamp and the zone PostgreSQL prints at TimeZone UTC: "... 10:30:00+00".
std::string format_timestamptz(int64_t micros);

// "hh:mm[:ss[.fraction]]" as microseconds since midnight, hours 0 to 23.
std::optional<int64_t> parse_time_of_day(std::string_view text);

// Midnight of a DATE; nullopt when the day is outside the TIMESTAMP range.
std::optional<int64_t> timestamp_from_date(int64_t days);

// The DATE of a TIMESTAMP (floor: 1969-12-31 23:00 is day -1).
int64_t date_of_timestamp(int64_t micros);

// ts + months, then + days, then + micros (PostgreSQL's order; a month clamps the day to
// the end of the target month). nullopt when the result leaves the TIMESTAMP range.
std::optional<int64_t> add_to_timestamp(int64_t micros, int64_t months, int64_t days,
                                        int64_t add_micros);

bool timestamp_in_range(__int128 micros);

}  // namespace tally
