// ARG_MIN / ARG_MAX's device state (compiler/functions/arg_min_max.cpp): one 128-bit word per
// group, the ordering argument's order-preserving image in the high half and the returned
// value's in the low half, merged by a signed 128-bit min (ARG_MIN) or max (ARG_MAX). The
// word order is the CPU engine's rule: the best key wins, and among equal keys the least
// value; ARG_MAX keeps that by storing the value's image complemented. Host C++ compiles
// the same functions, so the host decodes partial states as the device encodes them.
#pragma once

#include "tally_double_bits.cuh"
#include "tally_host_device.cuh"

namespace tally_arg_pair {

typedef long long i64;
typedef unsigned long long u64;
typedef __int128 i128;
typedef unsigned __int128 u128;

constexpr u64 kSignBit = 0x8000000000000000ull;
constexpr u64 kCanonicalNan = 0x7FF8000000000000ull;

using tally_bits::double_bits;

// A double's bits as a signed integer of the same order: negative doubles' magnitude bits
// flipped. Every NaN is one value above +Infinity (the CPU engine sorts NaN last and equal).
TALLY_HD i64 ordered_double(double d) {
  const i64 bits = d != d ? static_cast<i64>(kCanonicalNan) : double_bits(d);
  return bits >= 0 ? bits : bits ^ 0x7FFFFFFFFFFFFFFFll;
}

// ordered_double's inverse (its own inverse too); NaN comes back canonical.
TALLY_HD i64 double_bits_of_ordered(i64 ordered) {
  return ordered >= 0 ? ordered : ordered ^ 0x7FFFFFFFFFFFFFFFll;
}

// The ordering argument's image: integers, dates, DECIMAL's unscaled value and dictionary
// codes are their own; a double's order ignores -0.0's sign, as comparing doubles does.
TALLY_HD i64 key_image(i64 key) { return key; }
TALLY_HD i64 key_image(double key) { return ordered_double(key == 0.0 ? 0.0 : key); }

// The returned value's image, unsigned: its bits survive (-0.0 included, ordered below
// +0.0), so the final gives back the value itself.
TALLY_HD u64 value_image(i64 value) { return static_cast<u64>(value) ^ kSignBit; }
TALLY_HD u64 value_image(double value) {
  return static_cast<u64>(ordered_double(value)) ^ kSignBit;
}

// The state word of one row; `greatest`: ARG_MAX, whose max must still prefer the least value.
TALLY_HD i128 pair(i64 key, u64 value, bool greatest) {
  const u64 low = greatest ? ~value : value;
  return static_cast<i128>((static_cast<u128>(static_cast<u64>(key)) << 64) | low);
}

TALLY_HD i64 pair_key(i128 p) { return static_cast<i64>(static_cast<u128>(p) >> 64); }

// The integer bits of a value_image: the integer itself, or a double's bits.
TALLY_HD i64 image_value_bits(u64 image, bool is_double) {
  const i64 ordered = static_cast<i64>(image ^ kSignBit);
  return is_double ? double_bits_of_ordered(ordered) : ordered;
}

// The kept value's integer bits: the integer itself, or a double's bits.
TALLY_HD i64 pair_value_bits(i128 p, bool greatest, bool is_double) {
  const u64 low = static_cast<u64>(static_cast<u128>(p));
  return image_value_bits(greatest ? ~low : low, is_double);
}

// Where an argument is a DECIMAL wider than 18 digits the two do not share one word: the
// key's image and then the value's are 128-bit words of their own, merged in two passes
// (compiler/functions/arg_min_max.cpp). A wide DECIMAL is its own image; a 64-bit argument
// is its image above, widened in its order.
TALLY_HD i128 wide_key_image(i128 key) { return key; }
TALLY_HD i128 wide_key_image(i64 key) { return key_image(key); }
TALLY_HD i128 wide_key_image(double key) { return key_image(key); }
TALLY_HD i128 wide_value_image(i128 value) { return value; }
TALLY_HD i128 wide_value_image(i64 value) { return static_cast<i128>(value_image(value)); }
TALLY_HD i128 wide_value_image(double value) { return static_cast<i128>(value_image(value)); }

}  // namespace tally_arg_pair
