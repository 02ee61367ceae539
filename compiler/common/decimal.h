// Exact scaled-integer arithmetic for DECIMAL(p,s), p <= 38, on 128-bit integers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "compiler/common/value.h"

namespace tally {

constexpr int kMaxDecimalPrecision = 38;

// 10^n for 0 <= n <= 38.
int128 pow10_128(int n);

// True if |v| < 10^precision.
bool fits_precision(int128 v, int precision);

// Checked operations: nullopt on 128-bit overflow.
std::optional<int128> checked_add(int128 a, int128 b);
std::optional<int128> checked_sub(int128 a, int128 b);
std::optional<int128> checked_mul(int128 a, int128 b);

// Multiplies by 10^by (by >= 0); nullopt on overflow.
std::optional<int128> upscale(int128 v, int by);
// Divides by 10^by, rounding half away from zero (by >= 0).
int128 downscale_round(int128 v, int by);
// a / b rounded half away from zero; b != 0.
int128 div_round(int128 a, int128 b);

// Parses "-12.345", "7", ".5", "1e3" is rejected. Returns the unscaled value at `scale`
// digits (rounded half away from zero when the text has more), or nullopt when the text
// is not a decimal number or does not fit `precision`.
std::optional<int128> parse_decimal(std::string_view text, int precision, int scale);
// Parses a HUGEINT's text: an optional sign and decimal digits, spaces around. nullopt when
// it is not an integer; *out_of_range set when it is one beyond -2^127 .. 2^127-1.
std::optional<int128> parse_int128(std::string_view text, bool* out_of_range);
// Digits before and after the point of a decimal literal ("12.50" -> {2, 2}).
std::pair<int, int> decimal_literal_shape(std::string_view text);

std::string format_decimal(int128 unscaled, int scale);
// format_decimal's text appended to `out`, without a string of its own: result writers spell
// millions of cells.
void append_decimal(std::string& out, int128 unscaled, int scale);
std::string int128_to_string(int128 v);

}  // namespace tally
