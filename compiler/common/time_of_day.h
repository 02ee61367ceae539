// TIME values: microseconds since midnight, 00:00:00 to 24:00:00 inclusive, as PostgreSQL
// (24:00:00 is the end of a day, a value of its own that sorts last).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/common/types.h"

namespace tally {

// "hh:mm[:ss[.fraction]]", spaces around allowed, or 24:00:00; nullopt when malformed.
std::optional<int64_t> parse_time(std::string_view text);

// "hh:mm:ss[.ffffff]", the fraction without trailing zeros (PostgreSQL).
std::string format_time(int64_t micros);

// The time of day of a TIMESTAMP.
int64_t time_of_timestamp(int64_t micros);

// The text of a TIMESTAMP, TIMESTAMPTZ or TIME (`type`) as its micros, and back: one place
// for casts, COPY and printing to choose the form.
std::optional<int64_t> parse_micros_text(TypeId type, std::string_view text);
std::string format_micros_text(TypeId type, int64_t micros);

// time + micros, wrapped around midnight (PostgreSQL's time + interval: the interval's
// months and days do not move a time of day).
int64_t add_to_time(int64_t time, int64_t micros);

}  // namespace tally
