#include "compiler/common/interval_value.h"

#include <fmt/format.h>

#include <cstdlib>

#include "compiler/common/timestamp.h"

namespace tally {

int128 pack_interval(const Interval& iv) {
  const uint64_t high = (static_cast<uint64_t>(static_cast<uint32_t>(iv.months)) << 32) |
                        static_cast<uint32_t>(iv.days);
  const auto low = static_cast<uint64_t>(iv.micros);
  return static_cast<int128>((static_cast<unsigned __int128>(high) << 64) | low);
}

Interval unpack_interval(int128 packed) {
  const auto bits = static_cast<unsigned __int128>(packed);
  const auto high = static_cast<uint64_t>(bits >> 64);
  Interval iv;
  iv.months = static_cast<int32_t>(static_cast<uint32_t>(high >> 32));
  iv.days = static_cast<int32_t>(static_cast<uint32_t>(high));
  iv.micros = static_cast<int64_t>(static_cast<uint64_t>(bits));
  return iv;
}

std::optional<Interval> interval_from_parts(const IntervalParts& parts) {
  auto fits = [](int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; };
  if (!fits(parts.months) || !fits(parts.days)) return std::nullopt;
  return Interval{static_cast<int32_t>(parts.months), static_cast<int32_t>(parts.days),
                  parts.micros};
}

std::optional<Interval> parse_interval_value(std::string_view text) {
  IntervalParse parse = parse_interval(text);
  if (!parse.parts) return std::nullopt;
  return interval_from_parts(*parse.parts);
}

namespace {

// One "n unit(s)" piece of PostgreSQL's EncodeInterval: a '+' after a negative piece so
// that '-1 days +02:00:00' reads back with the sign each piece had.
void add_piece(std::string& out, int64_t value, const char* unit, bool& after_negative) {
  if (value == 0) return;
  if (!out.empty()) out += ' ';
  if (after_negative && value > 0) out += '+';
  out += fmt::format("{} {}{}", value, unit, value == 1 ? "" : "s");
  after_negative = value < 0;
}

}  // namespace

std::string format_interval(const Interval& iv) {
  std::string out;
  bool after_negative = false;
  add_piece(out, iv.months / 12, "year", after_negative);
  add_piece(out, iv.months % 12, "mon", after_negative);
  add_piece(out, iv.days, "day", after_negative);
  if (!out.empty() && iv.micros == 0) return out;
  // Magnitudes in unsigned arithmetic: -2^63 micros has no positive int64.
  const bool negative = iv.micros < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(iv.micros) : iv.micros;
  const uint64_t seconds = magnitude / kMicrosPerSecond, fraction = magnitude % kMicrosPerSecond;
  if (!out.empty()) out += ' ';
  out += negative ? "-" : (after_negative ? "+" : "");
  out += fmt::format("{:02d}:{:02d}:{:02d}", seconds / 3600, seconds / 60 % 60, seconds % 60);
  if (fraction == 0) return out;
  std::string digits = fmt::format("{:06d}", fraction);
  while (digits.back() == '0') digits.pop_back();
  return out + "." + digits;
}

int128 interval_span(const Interval& iv) {
  return (static_cast<int128>(iv.months) * 30 + iv.days) * kMicrosPerDay + iv.micros;
}

Interval interval_of_span(int128 span) {
  const int128 days = span / kMicrosPerDay;
  const auto micros = static_cast<int64_t>(span - days * kMicrosPerDay);
  if (days >= INT32_MIN && days <= INT32_MAX) return {0, static_cast<int32_t>(days), micros};
  return {static_cast<int32_t>(days / 30), static_cast<int32_t>(days % 30), micros};
}

}  // namespace tally
