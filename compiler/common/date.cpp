#include "compiler/common/date.h"

#include <fmt/format.h>

namespace tally {

// Howard Hinnant's civil-calendar algorithms (public domain), days since 1970-01-01. In 64
// bits: add_months reaches years whose day numbers do not fit 32 bits.
static int64_t days_from_civil64(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy =
      (153 * static_cast<unsigned>(m + (m > 2 ? -3 : 9)) + 2) / 5 + static_cast<unsigned>(d) - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

int32_t days_from_civil(int y, int m, int d) {
  return static_cast<int32_t>(days_from_civil64(y, m, d));
}

CivilDate civil_from_days(int32_t z) {
  int64_t zz = static_cast<int64_t>(z) + 719468;
  const int64_t era = (zz >= 0 ? zz : zz - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(zz - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int>(y + (m <= 2)), static_cast<int>(m), static_cast<int>(d)};
}

static bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int days_in_month(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

bool valid_civil(int y, int m, int d) {
  return y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

static bool parse_number(std::string_view& text, int min_digits, int max_digits, int& out) {
  int digits = 0;
  out = 0;
  while (!text.empty() && text[0] >= '0' && text[0] <= '9' && digits < max_digits) {
    out = out * 10 + (text[0] - '0');
    text.remove_prefix(1);
    ++digits;
  }
  return digits >= min_digits;
}

std::optional<int32_t> parse_date(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  int y, m, d;
  if (!parse_number(text, 4, 4, y) || text.empty() || text[0] != '-') return std::nullopt;
  text.remove_prefix(1);
  if (!parse_number(text, 1, 2, m) || text.empty() || text[0] != '-') return std::nullopt;
  text.remove_prefix(1);
  if (!parse_number(text, 1, 2, d) || !text.empty()) return std::nullopt;
  if (!valid_civil(y, m, d)) return std::nullopt;
  return days_from_civil(y, m, d);
}

std::string format_date(int32_t days) {
  CivilDate c = civil_from_days(days);
  return fmt::format("{:04d}-{:02d}-{:02d}", c.year, c.month, c.day);
}

int64_t add_months(int32_t days, int64_t months) {
  // Past a billion months (83 million years) no DATE can result: a value far outside the
  // 32-bit day range lets the caller's range check refuse it, where 64-bit month
  // arithmetic could overflow.
  constexpr int64_t kMonthsBound = 1'000'000'000, kFar = int64_t{1} << 40;
  if (months > kMonthsBound || months < -kMonthsBound) return months > 0 ? kFar : -kFar;
  CivilDate c = civil_from_days(days);
  int64_t total = static_cast<int64_t>(c.year) * 12 + (c.month - 1) + months;
  int64_t year = total >= 0 ? total / 12 : (total - 11) / 12;
  int month = static_cast<int>(total - year * 12) + 1;
  // days_in_month reads only the year's leap-ness, the same every 400 years.
  int day = std::min(c.day, days_in_month(static_cast<int>(year % 400 + 400), month));
  return days_from_civil64(year, month, day);
}

}  // namespace tally
