// INTERVAL literals as PostgreSQL keeps them: months, days and microseconds apart, because a
// month has no fixed number of days.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tally {

struct IntervalParts {
  int64_t months = 0;
  int64_t days = 0;
  int64_t micros = 0;
};

// What reading an interval's text found: the parts, or why not (error names the bad piece:
// "unit 'fortnight'" is an unsupported unit, anything else malformed text).
struct IntervalParse {
  std::optional<IntervalParts> parts;
  bool unknown_unit = false;
  std::string bad_piece;
};

// `count` of one unit word (year(s), month(s), week(s), day(s), hour(s), minute(s),
// second(s), millisecond(s), microsecond(s), and PostgreSQL's short forms).
IntervalParse interval_of(int64_t count, std::string_view unit);

// PostgreSQL's interval text: '3 days', '1 year 2 months -3 days', '2 hours 30 minutes',
// '1 day 02:30:00', '-01:30', '00:00:01.5'. Whole numbers of units (only seconds take a fraction).
IntervalParse parse_interval(std::string_view text);

// Unit words interval_of reads, for error messages.
const char* interval_unit_names();

}  // namespace tally
