#include "compiler/common/timestamp.h"

#include <fmt/format.h>

#include "compiler/common/date.h"
#include "compiler/common/time_of_day.h"

namespace tally {

namespace {

constexpr int64_t kMinDay = -719162;  // 0001-01-01
constexpr int64_t kMaxDay = 2932896;  // 9999-12-31

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Exactly `width` digits.
bool take_digits(std::string_view& text, int width, int& out) {
  out = 0;
  for (int i = 0; i < width; ++i) {
    if (text.empty() || text[0] < '0' || text[0] > '9') return false;
    out = out * 10 + (text[0] - '0');
    text.remove_prefix(1);
  }
  return true;
}

bool take(std::string_view& text, char c) {
  if (text.empty() || text[0] != c) return false;
  text.remove_prefix(1);
  return true;
}

// ".ddd...": microseconds, rounded half up at the seventh digit; 1'000'000 when it rounds
// to a whole second.
std::optional<int64_t> take_fraction(std::string_view& text) {
  if (!take(text, '.')) return 0;
  int64_t micros = 0;
  int digits = 0;
  bool round_up = false;
  while (!text.empty() && text[0] >= '0' && text[0] <= '9') {
    if (digits < 6) micros = micros * 10 + (text[0] - '0');
    if (digits == 6) round_up = text[0] >= '5';
    ++digits;
    text.remove_prefix(1);
  }
  if (digits == 0) return std::nullopt;
  for (int i = digits; i < 6; ++i) micros *= 10;
  return micros + (round_up ? 1 : 0);
}

}  // namespace

bool timestamp_in_range(__int128 micros) {
  return micros >= static_cast<__int128>(kMinDay) * kMicrosPerDay &&
         micros < static_cast<__int128>(kMaxDay + 1) * kMicrosPerDay;
}

std::optional<int64_t> parse_timestamp(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  size_t split = text.find_first_of(" T");
  std::optional<int32_t> days = parse_date(text.substr(0, split));
  if (!days) return std::nullopt;
  int64_t time = 0;
  if (split != std::string_view::npos) {
    std::string_view rest = text.substr(split + 1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    std::optional<int64_t> parsed = parse_time_of_day(rest);
    if (!parsed) return std::nullopt;
    time = *parsed;
  }
  const __int128 micros = static_cast<__int128>(*days) * kMicrosPerDay + time;
  if (!timestamp_in_range(micros)) return std::nullopt;
  return static_cast<int64_t>(micros);
}

std::string format_timestamp(int64_t micros) {
  const int64_t days = date_of_timestamp(micros);
  return format_date(static_cast<int32_t>(days)) + " " + format_time(micros - days * kMicrosPerDay);
}

std::optional<int64_t> parse_time_of_day(std::string_view text) {
  int h = 0, m = 0, s = 0;
  if (!take_digits(text, 2, h) || !take(text, ':') || !take_digits(text, 2, m)) return std::nullopt;
  std::optional<int64_t> fraction = 0;
  if (take(text, ':')) {
    if (!take_digits(text, 2, s)) return std::nullopt;
    fraction = take_fraction(text);
  }
  if (!fraction || !text.empty() || h > 23 || m > 59 || s > 59) return std::nullopt;
  return ((h * 60 + m) * int64_t{60} + s) * kMicrosPerSecond + *fraction;
}

namespace {

// A trailing UTC offset in seconds east of Greenwich, taken off `text`; 0 when there is
// none, nullopt when one is malformed.
std::optional<int64_t> take_utc_offset(std::string_view& text) {
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  for (std::string_view zone : {"Z", "UTC", "z", "utc"}) {
    if (!text.ends_with(zone)) continue;
    text.remove_suffix(zone.size());
    return 0;
  }
  // The offset's sign comes after the time of day, whose ':' precedes it.
  const size_t colon = text.find(':');
  const size_t sign =
      text.find_first_of("+-", colon == std::string_view::npos ? text.size() : colon);
  if (sign == std::string_view::npos) return 0;
  std::string_view zone = text.substr(sign + 1);
  int hours = 0, minutes = 0;
  if (!take_digits(zone, 2, hours)) return std::nullopt;
  take(zone, ':');
  if (!zone.empty() && !take_digits(zone, 2, minutes)) return std::nullopt;
  if (!zone.empty() || hours > 15 || minutes > 59) return std::nullopt;
  const bool west = text[sign] == '-';
  text = text.substr(0, sign);
  const int64_t seconds = (hours * 60 + minutes) * int64_t{60};
  return west ? -seconds : seconds;
}

}  // namespace

std::optional<int64_t> parse_timestamptz(std::string_view text) {
  std::optional<int64_t> offset = take_utc_offset(text);
  if (!offset) return std::nullopt;
  std::optional<int64_t> local = parse_timestamp(text);
  if (!local) return std::nullopt;
  const int64_t utc = *local - *offset * kMicrosPerSecond;
  if (!timestamp_in_range(utc)) return std::nullopt;
  return utc;
}

std::string format_timestamptz(int64_t micros) { return format_timestamp(micros) + "+00"; }

std::optional<int64_t> timestamp_from_date(int64_t days) {
  if (days < kMinDay || days > kMaxDay) return std::nullopt;
  return days * kMicrosPerDay;
}

int64_t date_of_timestamp(int64_t micros) { return floor_div(micros, kMicrosPerDay); }

std::optional<int64_t> add_to_timestamp(int64_t micros, int64_t months, int64_t days,
                                        int64_t add_micros) {
  int64_t day = date_of_timestamp(micros);
  const int64_t time = micros - day * kMicrosPerDay;
  if (months != 0) {
    if (day < kMinDay || day > kMaxDay) return std::nullopt;
    day = add_months(static_cast<int32_t>(day), months);
  }
  const __int128 result = (static_cast<__int128>(day) + days) * kMicrosPerDay + time + add_micros;
  if (!timestamp_in_range(result)) return std::nullopt;
  return static_cast<int64_t>(result);
}

}  // namespace tally
