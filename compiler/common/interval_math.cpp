#include "compiler/common/interval_math.h"

#include <cmath>

#include "compiler/common/timestamp.h"

namespace tally {

namespace {

constexpr double kDaysPerMonth = 30;
constexpr double kSecondsPerDay = 86'400;

std::optional<Interval> checked(int128 months, int128 days, int128 micros) {
  if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN || days > INT32_MAX ||
      micros < INT64_MIN || micros > INT64_MAX) {
    return std::nullopt;
  }
  return Interval{static_cast<int32_t>(months), static_cast<int32_t>(days),
                  static_cast<int64_t>(micros)};
}

// PostgreSQL's TSROUND: rounds to the microsecond's share, so that 0.1 * 30 days is 3.
double round_to_micros(double v) { return std::rint(v * 1e6) / 1e6; }

bool fits_int32(double v) { return !std::isnan(v) && v >= INT32_MIN && v < 2147483648.0; }

// The three parts already multiplied or divided (`scaled_*`) as whole parts: the fraction of
// the months becomes days and that of the days seconds, as interval_mul does.
std::optional<Interval> spill_down(double scaled_months, double scaled_days, double scaled_micros) {
  if (!fits_int32(scaled_months) || !fits_int32(scaled_days)) return std::nullopt;
  const auto months = static_cast<int32_t>(scaled_months);
  int64_t days = static_cast<int32_t>(scaled_days);
  const double month_days = round_to_micros((scaled_months - months) * kDaysPerMonth);
  double seconds = round_to_micros(
      (scaled_days - static_cast<double>(days) + month_days - static_cast<int>(month_days)) *
      kSecondsPerDay);
  // A day's worth of seconds (from rounding, or from the months' share) becomes a day.
  if (std::fabs(seconds) >= kSecondsPerDay) {
    days += static_cast<int>(seconds / kSecondsPerDay);
    seconds -= static_cast<int>(seconds / kSecondsPerDay) * kSecondsPerDay;
  }
  days += static_cast<int32_t>(month_days);
  const double micros = std::rint(scaled_micros + seconds * 1e6);
  if (std::isnan(micros) || micros < -9.2233720368547758e18 || micros >= 9.2233720368547758e18) {
    return std::nullopt;
  }
  return checked(months, days, static_cast<int64_t>(micros));
}

}  // namespace

std::optional<Interval> add_intervals(const Interval& a, const Interval& b) {
  return checked(static_cast<int128>(a.months) + b.months, static_cast<int128>(a.days) + b.days,
                 static_cast<int128>(a.micros) + b.micros);
}

std::optional<Interval> subtract_intervals(const Interval& a, const Interval& b) {
  return checked(static_cast<int128>(a.months) - b.months, static_cast<int128>(a.days) - b.days,
                 static_cast<int128>(a.micros) - b.micros);
}

std::optional<Interval> negate_interval(const Interval& a) {
  return checked(-static_cast<int128>(a.months), -static_cast<int128>(a.days),
                 -static_cast<int128>(a.micros));
}

std::optional<Interval> multiply_interval(const Interval& a, double factor) {
  return spill_down(a.months * factor, a.days * factor, static_cast<double>(a.micros) * factor);
}

std::optional<Interval> divide_interval(const Interval& a, double divisor) {
  return spill_down(a.months / divisor, a.days / divisor, static_cast<double>(a.micros) / divisor);
}

std::optional<Interval> timestamp_difference(int64_t a, int64_t b) {
  const int128 micros = static_cast<int128>(a) - b;
  // Truncated division keeps the days and the rest of one sign (interval_justify_hours).
  const int128 days = micros / kMicrosPerDay;
  return checked(0, days, micros - days * kMicrosPerDay);
}

}  // namespace tally
