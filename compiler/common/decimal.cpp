#include "compiler/common/decimal.h"

#include <algorithm>

namespace tally {

namespace {

constexpr int128 make_pow10(int n) {
  int128 v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

struct Pow10Table {
  int128 values[kMaxDecimalPrecision + 1];
  constexpr Pow10Table() : values() {
    for (int i = 0; i <= kMaxDecimalPrecision; ++i) values[i] = make_pow10(i);
  }
};
constexpr Pow10Table kPow10;

int128 abs128(int128 v) { return v < 0 ? -v : v; }

}  // namespace

int128 pow10_128(int n) { return kPow10.values[n]; }

bool fits_precision(int128 v, int precision) { return abs128(v) < pow10_128(precision); }

std::optional<int128> checked_add(int128 a, int128 b) {
  int128 r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int128> checked_sub(int128 a, int128 b) {
  int128 r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int128> checked_mul(int128 a, int128 b) {
  int128 r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int128> upscale(int128 v, int by) {
  if (by <= 0) return v;
  if (by > kMaxDecimalPrecision) return v == 0 ? std::optional<int128>(0) : std::nullopt;
  return checked_mul(v, pow10_128(by));
}

int128 downscale_round(int128 v, int by) {
  if (by <= 0) return v;
  if (by > kMaxDecimalPrecision) return 0;
  return div_round(v, pow10_128(by));
}

int128 div_round(int128 a, int128 b) {
  int128 q = a / b;
  int128 r = a % b;
  // Half away from zero: round up in magnitude when 2|r| >= |b|.
  if (abs128(r) >= abs128(b) - abs128(r)) q += ((a < 0) != (b < 0)) ? -1 : 1;
  return q;
}

std::optional<int128> parse_int128(std::string_view text, bool* out_of_range) {
  *out_of_range = false;
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return std::nullopt;
  // Accumulate the magnitude in unsigned 128 bits, so that -2^127 parses.
  using u128 = unsigned __int128;
  const u128 limit = (u128(1) << 127) - (negative ? 0 : 1);
  u128 magnitude = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<unsigned>(c - '0');
    if (magnitude > (limit - digit) / 10) *out_of_range = true;
    if (!*out_of_range) magnitude = magnitude * 10 + digit;
  }
  if (*out_of_range) return std::nullopt;
  return negative ? static_cast<int128>(-magnitude) : static_cast<int128>(magnitude);
}

std::pair<int, int> decimal_literal_shape(std::string_view text) {
  size_t start = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  size_t point = text.find('.');
  std::string_view whole =
      text.substr(start, point == std::string_view::npos ? text.npos : point - start);
  std::string_view frac =
      point == std::string_view::npos ? std::string_view() : text.substr(point + 1);
  // Leading zeros of the whole part carry no precision ("0.5" is DECIMAL(1,1)).
  size_t nz = whole.find_first_not_of('0');
  int whole_digits = nz == std::string_view::npos ? 0 : static_cast<int>(whole.size() - nz);
  return {whole_digits, static_cast<int>(frac.size())};
}

std::optional<int128> parse_decimal(std::string_view text, int precision, int scale) {
  size_t i = 0;
  while (i < text.size() && text[i] == ' ') ++i;
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  int128 value = 0;
  int frac_digits = 0;
  bool seen_point = false, seen_digit = false, dropped = false, round_up = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      if (seen_point) return std::nullopt;
      seen_point = true;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    seen_digit = true;
    if (seen_point && frac_digits == scale) {
      // Digits beyond the scale: the first one decides rounding (half away from zero).
      if (!dropped) round_up = c >= '5';
      dropped = true;
      continue;
    }
    value = value * 10 + (c - '0');
    if (value >= pow10_128(kMaxDecimalPrecision)) return std::nullopt;
    if (seen_point) ++frac_digits;
  }
  if (!seen_digit) return std::nullopt;
  if (frac_digits < scale) {
    auto up = upscale(value, scale - frac_digits);
    if (!up) return std::nullopt;
    value = *up;
  }
  if (round_up) value += 1;
  if (!fits_precision(value, precision)) return std::nullopt;
  return negative ? -value : value;
}

namespace {

// The decimal digits of `u`, least significant first. 128-bit division is a library call
// per digit; here it runs once per 19 digits and the rest is 64-bit arithmetic (a TPC-H Q1
// result's 28 DECIMAL cells took microseconds to spell the other way).
std::string reversed_digits(unsigned __int128 u) {
  constexpr uint64_t kChunk = 10'000'000'000'000'000'000ULL;  // 10^19
  std::string digits;
  while (u > 0) {
    uint64_t part = static_cast<uint64_t>(u % kChunk);
    u /= kChunk;
    for (int d = 0; d < 19 && (part > 0 || u > 0); ++d) {
      digits.push_back(static_cast<char>('0' + part % 10));
      part /= 10;
    }
  }
  return digits;
}

unsigned __int128 magnitude(int128 v) {
  // In unsigned, so that the most negative value is representable.
  return v < 0 ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
}

}  // namespace

std::string int128_to_string(int128 v) {
  if (v == 0) return "0";
  std::string digits = reversed_digits(magnitude(v));
  if (v < 0) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::string format_decimal(int128 unscaled, int scale) {
  std::string out;
  append_decimal(out, unscaled, scale);
  return out;
}

void append_decimal(std::string& out, int128 unscaled, int scale) {
  // The digits from the last, written backwards into a buffer with room for 39 digits, a
  // point and a sign; 128-bit division only while the rest passes 64 bits. At least one
  // digit before the point.
  char text[48];
  char* at = text + sizeof text;
  int written = 0;
  auto put_digit = [&](uint64_t digit) {
    *--at = static_cast<char>('0' + digit);
    if (++written == scale) *--at = '.';
  };
  unsigned __int128 u = magnitude(unscaled);
  for (; u > UINT64_MAX; u /= 10) put_digit(static_cast<uint64_t>(u % 10));
  for (uint64_t rest = static_cast<uint64_t>(u); rest > 0 || written <= scale; rest /= 10) {
    put_digit(rest % 10);
  }
  if (unscaled < 0) *--at = '-';
  out.append(at, text + sizeof text);
}

}  // namespace tally
