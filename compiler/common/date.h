// Civil calendar dates as days since 1970-01-01 (proleptic Gregorian).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tally {

struct CivilDate {
  int year;
  int month;  // 1..12
  int day;    // 1..31
};

int32_t days_from_civil(int year, int month, int day);
CivilDate civil_from_days(int32_t days);
bool valid_civil(int year, int month, int day);

// "yyyy-mm-dd" (also "yyyy-m-d"); nullopt when malformed or not a real date.
std::optional<int32_t> parse_date(std::string_view text);
std::string format_date(int32_t days);

// d + n months, clamping the day to the end of the target month (PostgreSQL rule:
// 2024-01-31 + 1 month = 2024-02-29). In 64 bits: a result outside the DATE range (32-bit
// days) is returned as such, for the caller to refuse, never wrapped into a wrong date.
int64_t add_months(int32_t days, int64_t months);

}  // namespace tally
