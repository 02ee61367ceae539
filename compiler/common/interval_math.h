// INTERVAL arithmetic with PostgreSQL's rules: parts add apart, a product or quotient spills
// fractional months into days (30 a month) and fractional days into micros (24 hours a
// day), and the difference of two timestamps is days and time, never months. nullopt where
// PostgreSQL says "interval out of range".
#pragma once

#include <optional>

#include "compiler/common/interval_value.h"

namespace tally {

std::optional<Interval> add_intervals(const Interval& a, const Interval& b);
std::optional<Interval> subtract_intervals(const Interval& a, const Interval& b);
std::optional<Interval> negate_interval(const Interval& a);

// interval * factor and interval / divisor (PostgreSQL's interval_mul and interval_div; the
// caller refuses a zero divisor).
std::optional<Interval> multiply_interval(const Interval& a, double factor);
std::optional<Interval> divide_interval(const Interval& a, double divisor);

// a - b of two timestamps' micros: whole days and the rest with one sign ('1 day 02:00:00',
// '-1 days -02:00:00'), as PostgreSQL's timestamp_mi.
std::optional<Interval> timestamp_difference(int64_t a, int64_t b);

}  // namespace tally
