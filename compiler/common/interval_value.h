// INTERVAL values as PostgreSQL keeps them: months, days and microseconds apart (a month has
// no fixed number of days), packed into a Value's 128-bit payload so that every path that
// carries a wide DECIMAL carries an interval too.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "compiler/common/interval.h"
#include "compiler/common/value.h"

namespace tally {

struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;
  bool operator==(const Interval&) const = default;
};

// Months in the high 32 bits, then days, then micros in the low 64.
int128 pack_interval(const Interval& iv);
Interval unpack_interval(int128 packed);
inline Value interval_value(const Interval& iv) { return Value::from_decimal(pack_interval(iv)); }
inline Interval as_interval(const Value& v) { return unpack_interval(v.d); }

// Parsed parts as an Interval; nullopt when months or days pass 32 bits.
std::optional<Interval> interval_from_parts(const IntervalParts& parts);

// PostgreSQL's text ('1 day 02:00:00', '-1 days +02:00:00', '1 year 2 mons'); nullopt when
// malformed or out of range.
std::optional<Interval> parse_interval_value(std::string_view text);

// PostgreSQL's default IntervalStyle: '1 year 2 mons 3 days 04:05:06', '00:00:00' for zero.
std::string format_interval(const Interval& iv);

// The microseconds an interval spans with 30-day months and 24-hour days: PostgreSQL's order
// and equality, so '1 day' = '24 hours' and '1 mon' = '30 days'.
int128 interval_span(const Interval& iv);
// An interval of that span: days and micros, months only for days past 32 bits.
Interval interval_of_span(int128 span);

}  // namespace tally
