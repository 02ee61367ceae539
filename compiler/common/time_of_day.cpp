#include "compiler/common/time_of_day.h"

#include <fmt/format.h>

#include "compiler/common/timestamp.h"

namespace tally {

std::optional<int64_t> parse_time(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (!text.starts_with("24:")) return parse_time_of_day(text);
  // 24:00:00 alone: the same digits read from hour 0 must be midnight exactly.
  std::string from_zero = "00" + std::string(text.substr(2));
  std::optional<int64_t> rest = parse_time_of_day(from_zero);
  if (!rest || *rest != 0) return std::nullopt;
  return kMicrosPerDay;
}

std::string format_time(int64_t micros) {
  const int64_t seconds = micros / kMicrosPerSecond, fraction = micros % kMicrosPerSecond;
  std::string out =
      fmt::format("{:02d}:{:02d}:{:02d}", seconds / 3600, seconds / 60 % 60, seconds % 60);
  if (fraction == 0) return out;
  std::string digits = fmt::format("{:06d}", fraction);
  while (digits.back() == '0') digits.pop_back();
  return out + "." + digits;
}

std::optional<int64_t> parse_micros_text(TypeId type, std::string_view text) {
  if (type == TypeId::Time) return parse_time(text);
  return type == TypeId::TimestampTz ? parse_timestamptz(text) : parse_timestamp(text);
}

std::string format_micros_text(TypeId type, int64_t micros) {
  if (type == TypeId::Time) return format_time(micros);
  return type == TypeId::TimestampTz ? format_timestamptz(micros) : format_timestamp(micros);
}

int64_t time_of_timestamp(int64_t micros) {
  return micros - date_of_timestamp(micros) * kMicrosPerDay;
}

int64_t add_to_time(int64_t time, int64_t micros) {
  const int64_t wrapped = (time + micros % kMicrosPerDay) % kMicrosPerDay;
  return wrapped < 0 ? wrapped + kMicrosPerDay : wrapped;
}

}  // namespace tally
