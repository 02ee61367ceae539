#include "compiler/common/interval.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "compiler/common/timestamp.h"

namespace tally {

namespace {

enum class Part { Months, Days, Micros };

struct UnitWord {
  const char* name;
  Part part;
  int64_t factor;
};

constexpr UnitWord kUnits[] = {
    {"year", Part::Months, 12},
    {"years", Part::Months, 12},
    {"y", Part::Months, 12},
    {"month", Part::Months, 1},
    {"months", Part::Months, 1},
    {"mon", Part::Months, 1},
    {"mons", Part::Months, 1},
    {"week", Part::Days, 7},
    {"weeks", Part::Days, 7},
    {"day", Part::Days, 1},
    {"days", Part::Days, 1},
    {"d", Part::Days, 1},
    {"hour", Part::Micros, 3600 * kMicrosPerSecond},
    {"hours", Part::Micros, 3600 * kMicrosPerSecond},
    {"h", Part::Micros, 3600 * kMicrosPerSecond},
    {"minute", Part::Micros, 60 * kMicrosPerSecond},
    {"minutes", Part::Micros, 60 * kMicrosPerSecond},
    {"min", Part::Micros, 60 * kMicrosPerSecond},
    {"mins", Part::Micros, 60 * kMicrosPerSecond},
    {"second", Part::Micros, kMicrosPerSecond},
    {"seconds", Part::Micros, kMicrosPerSecond},
    {"sec", Part::Micros, kMicrosPerSecond},
    {"secs", Part::Micros, kMicrosPerSecond},
    {"s", Part::Micros, kMicrosPerSecond},
    {"millisecond", Part::Micros, 1000},
    {"milliseconds", Part::Micros, 1000},
    {"ms", Part::Micros, 1000},
    {"microsecond", Part::Micros, 1},
    {"microseconds", Part::Micros, 1},
    {"us", Part::Micros, 1},
};

IntervalParse failed(std::string_view piece, bool unknown_unit = false) {
  IntervalParse p;
  p.unknown_unit = unknown_unit;
  p.bad_piece = std::string(piece);
  return p;
}

// part += count * factor, false past 64 bits.
bool add_checked(int64_t& part, int64_t count, int64_t factor) {
  __int128 v = static_cast<__int128>(part) + static_cast<__int128>(count) * factor;
  if (v < INT64_MIN || v > INT64_MAX) return false;
  part = static_cast<int64_t>(v);
  return true;
}

bool add_unit(IntervalParts& parts, int64_t count, const UnitWord& unit) {
  int64_t& part = unit.part == Part::Months ? parts.months
                  : unit.part == Part::Days ? parts.days
                                            : parts.micros;
  return add_checked(part, count, unit.factor);
}

std::optional<int64_t> whole_number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The micros of ".ffffff" after the seconds (a seventh digit rounds, as PostgreSQL does);
// nullopt when not digits.
std::optional<int64_t> second_fraction(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  int64_t micros = 0;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(digits[i]))) return std::nullopt;
    if (i < 6) micros = micros * 10 + (digits[i] - '0');
    if (i == 6 && digits[i] >= '5') ++micros;
  }
  for (size_t i = digits.size(); i < 6; ++i) micros *= 10;
  return micros;
}

// "[-]h:mm[:ss[.ffffff]]" as signed micros.
std::optional<int64_t> clock_time(std::string_view text) {
  const bool negative = !text.empty() && text.front() == '-';
  if (negative || (!text.empty() && text.front() == '+')) text.remove_prefix(1);
  int64_t fraction = 0;
  if (size_t dot = text.find('.'); dot != std::string_view::npos) {
    auto f = second_fraction(text.substr(dot + 1));
    if (!f || std::count(text.begin(), text.end(), ':') != 2) return std::nullopt;
    fraction = *f;
    text = text.substr(0, dot);
  }
  int64_t fields[3] = {0, 0, 0};
  int n = 0;
  while (n < 3) {
    size_t colon = text.find(':');
    auto v = whole_number(text.substr(0, colon));
    if (!v || *v < 0 || (n > 0 && *v > 59) || *v > INT32_MAX) return std::nullopt;
    fields[n++] = *v;
    if (colon == std::string_view::npos) break;
    text.remove_prefix(colon + 1);
  }
  if (n < 2) return std::nullopt;
  const int64_t micros =
      ((fields[0] * 60 + fields[1]) * 60 + fields[2]) * kMicrosPerSecond + fraction;
  return negative ? -micros : micros;
}

std::string_view next_word(std::string_view& text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  size_t end = 0;
  while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
  std::string_view word = text.substr(0, end);
  text.remove_prefix(end);
  return word;
}

}  // namespace

const char* interval_unit_names() {
  return "year, month, week, day, hour, minute, second, millisecond, microsecond";
}

IntervalParse interval_of(int64_t count, std::string_view unit) {
  std::string lower;
  for (char c : unit) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const UnitWord& word : kUnits) {
    if (lower != word.name) continue;
    IntervalParts parts;
    if (!add_unit(parts, count, word)) return failed(std::to_string(count));
    return {parts, false, {}};
  }
  return failed(unit, true);
}

IntervalParse parse_interval(std::string_view text) {
  IntervalParts total;
  bool any = false;
  for (std::string_view word = next_word(text); !word.empty(); word = next_word(text)) {
    any = true;
    if (word.find(':') != std::string_view::npos) {
      auto micros = clock_time(word);
      if (!micros || !add_checked(total.micros, *micros, 1)) return failed(word);
      continue;
    }
    auto count = whole_number(word);
    if (!count) return failed(word);
    std::string_view unit = next_word(text);
    if (unit.empty()) return failed(word);
    IntervalParse one = interval_of(*count, unit);
    if (!one.parts) return one;
    if (!add_checked(total.months, one.parts->months, 1) ||
        !add_checked(total.days, one.parts->days, 1) ||
        !add_checked(total.micros, one.parts->micros, 1)) {
      return failed(word);
    }
  }
  if (!any) return failed(text);
  return {total, false, {}};
}

}  // namespace tally
