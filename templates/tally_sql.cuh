// tally device library: SQL scalar semantics for generated Scan code, matching the CPU
// evaluator (compiler/eval/arith.cpp, cast.cpp, evaluator.cpp) operation for operation:
// checked integer ranges, exact DECIMAL rescaling with rounding half away from zero,
// civil dates. An error (overflow, division by zero, failed cast) cannot throw on the
// device: it raises a status bit that the host turns into the same error the CPU gives.
#pragma once

#include "tally_date_parts.cuh"
#include "tally_table_global.cuh"
#include "tally_types.cuh"

namespace tally {

// 10^n as i128, 0 <= n <= 38, one factor per bit of n. NVRTC left a loop over n (one
// 128-bit product a turn) in every comparison of two scales, even with n a literal;
// branches on constant bits fold away, and a runtime n costs six products at most.
__host__ __device__ constexpr i128 pow10_i128(int n) {
  constexpr i128 k1e16 = 10000000000000000ll;
  i128 v = 1;
  if (n & 1) v *= 10;
  if (n & 2) v *= 100;
  if (n & 4) v *= 10000;
  if (n & 8) v *= 100000000;
  if (n & 16) v *= k1e16;
  if (n & 32) v *= k1e16 * k1e16;
  return v;
}

TALLY_DEV i128 abs_i128(i128 v) { return v < 0 ? -v : v; }

// Integer result checked against [lo, hi] (the SQL type's range); the status bit names
// the type, so the host reports the CPU's message ("bigint out of range").
TALLY_DEV i64 check_int(i128 v, i64 lo, i64 hi, u32* status) {
  if (v < (i128)lo || v > (i128)hi) {
    raise_status(status, hi == 32767     ? kStatusSmallintOverflow
                         : hi == kI64Max ? kStatusBigintOverflow
                                         : kStatusIntegerOverflow);
    return 0;
  }
  return (i64)v;
}

// |v| < 10^digits, else the numeric-overflow status.
TALLY_DEV i128 check_digits(i128 v, int digits, u32* status) {
  if (abs_i128(v) >= pow10_i128(digits)) {
    raise_status(status, kStatusNumericOverflow);
    return 0;
  }
  return v;
}

// a / b rounded half away from zero (b != 0).
TALLY_DEV i128 div_round_i128(i128 a, i128 b) {
  i128 q = a / b;
  const i128 r = a % b;
  if (abs_i128(r) >= abs_i128(b) - abs_i128(r)) q += ((a < 0) != (b < 0)) ? -1 : 1;
  return q;
}

// v * 10^by, checked against 38 digits when the binder could not rule overflow out.
TALLY_DEV i128 upscale_checked(i128 v, int by, u32* status) {
  if (by <= 0) return v;
  const i128 limit = pow10_i128(38 - by);
  if (abs_i128(v) >= limit) {
    raise_status(status, kStatusNumericOverflow);
    return 0;
  }
  return v * pow10_i128(by);
}

// Past 38 digits every DECIMAL (|v| < 10^38) rounds to 0, and 10^by would not fit 128 bits
// (ROUND(x::DECIMAL(37,30), -20) divides by 10^50), as in compiler/common/decimal.cpp.
TALLY_DEV i128 downscale_round(i128 v, int by) {
  if (by > 38) return 0;
  return by <= 0 ? v : div_round_i128(v, pow10_i128(by));
}

// Checked 128-bit product against 38 digits.
TALLY_DEV i128 mul_checked(i128 a, i128 b, u32* status) {
  // Factors below 2^63 each give a product below 2^126 < 10^38: the common case skips
  // the 128-bit division (a software loop on the GPU, hundreds of instructions).
  const i128 small = (i128)1 << 63;
  if (abs_i128(a) < small && abs_i128(b) < small) return a * b;
  if (a != 0 && abs_i128(b) > (pow10_i128(38) - 1) / abs_i128(a)) {
    raise_status(status, kStatusNumericOverflow);
    return 0;
  }
  return a * b;
}

// x + y for |x|, |y| < 10^38, checked against 38 digits: the 128-bit sum itself can wrap
// (2 * 10^38 > 2^127), so the wrap is detected from the signs first.
TALLY_DEV i128 add_digits_checked(i128 x, i128 y, u32* status) {
  const i128 r = (i128)((u128)x + (u128)y);
  if ((x >= 0) == (y >= 0) && (r >= 0) != (x >= 0)) {
    raise_status(status, kStatusNumericOverflow);
    return 0;
  }
  return check_digits(r, 38, status);
}

// ---- HUGEINT: all of int128, an overflow raises kStatusHugeintOverflow (as
// compiler/eval/arith.cpp's hugeint_arith). Sums wrap in unsigned words; the signs tell a wrap.
TALLY_DEV i128 hugeint_overflow(u32* status) {
  raise_status(status, kStatusHugeintOverflow);
  return 0;
}

TALLY_DEV i128 add_hugeint(i128 a, i128 b, u32* status) {
  const i128 r = (i128)((u128)a + (u128)b);
  return ((a >= 0) == (b >= 0) && (r >= 0) != (a >= 0)) ? hugeint_overflow(status) : r;
}

TALLY_DEV i128 sub_hugeint(i128 a, i128 b, u32* status) {
  const i128 r = (i128)((u128)a - (u128)b);
  return ((a >= 0) != (b >= 0) && (r >= 0) != (a >= 0)) ? hugeint_overflow(status) : r;
}

// |a| * |b| against 2^127 - 1 (2^127 for a negative product), in unsigned magnitudes.
TALLY_DEV i128 mul_hugeint(i128 a, i128 b, u32* status) {
  const i128 small = (i128)1 << 63;
  if (a > -small && a < small && b > -small && b < small) return a * b;
  if (a == 0 || b == 0) return 0;
  const u128 ma = a < 0 ? (u128)0 - (u128)a : (u128)a;
  const u128 mb = b < 0 ? (u128)0 - (u128)b : (u128)b;
  const bool negative = (a < 0) != (b < 0);
  const u128 limit = ((u128)1 << 127) - (negative ? 0 : 1);
  if (ma > limit / mb) return hugeint_overflow(status);
  const u128 m = ma * mb;
  return negative ? (i128)((u128)0 - m) : (i128)m;
}

// Truncated quotient and remainder (b != 0); -2^127 / -1 is the one quotient out of range.
TALLY_DEV i128 div_hugeint(i128 a, i128 b, u32* status) {
  return b == -1 ? sub_hugeint(0, a, status) : a / b;
}

TALLY_DEV i128 mod_hugeint(i128 a, i128 b, u32*) { return b == -1 ? 0 : a % b; }

TALLY_DEV i128 neg_hugeint(i128 v, u32* status) { return sub_hugeint(0, v, status); }

// Doubles compared as compiler/eval/value_ops.cpp does: NaN above everything, equal to itself.
TALLY_DEV int cmp_f64(f64 a, f64 b) {
  const bool na = a != a, nb = b != b;
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

TALLY_DEV bool is_zero_divisor(bool is_zero, u32* status) {
  if (is_zero) raise_status(status, kStatusDivisionByZero);
  return is_zero;
}

// Compares DECIMALs of two scales (as compiler/eval/value_ops.cpp compare_decimal): aligning
// the smaller scale could overflow 128 bits, and then that side is the larger in magnitude.
TALLY_DEV int cmp_decimal(i128 a, int sa, i128 b, int sb) {
  if (sa < sb) {
    if (abs_i128(a) >= pow10_i128(38 - (sb - sa))) return a < 0 ? -1 : 1;
    a *= pow10_i128(sb - sa);
  } else if (sb < sa) {
    if (abs_i128(b) >= pow10_i128(38 - (sa - sb))) return b < 0 ? 1 : -1;
    b *= pow10_i128(sa - sb);
  }
  return a < b ? -1 : (a > b ? 1 : 0);
}

// ---- dates: days since 1970-01-01, Hinnant's civil algorithms (as compiler/common/date.cpp) ----
struct Civil {
  int year, month, day;
};

TALLY_DEV i64 days_from_civil(i64 y, i64 m, i64 d) {
  y -= m <= 2;
  const i64 era = (y >= 0 ? y : y - 399) / 400;
  const i64 yoe = y - era * 400;
  const i64 doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const i64 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

TALLY_DEV Civil civil_from_days(i64 z) {
  // Dates from year 0 on in 32-bit arithmetic (tally_dates::ymd_from_days32).
  if (z >= -719468 && z <= 0x7fffffffll - 719468) {
    const tally_dates::Ymd c = tally_dates::ymd_from_days32(z);
    Civil r = {(int)c.year, (int)c.month, (int)c.day};
    return r;
  }
  z += 719468;
  const i64 era = (z >= 0 ? z : z - 146096) / 146097;
  const i64 doe = z - era * 146097;
  const i64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const i64 y = yoe + era * 400;
  const i64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const i64 mp = (5 * doy + 2) / 153;
  const i64 d = doy - (153 * mp + 2) / 5 + 1;
  const i64 m = mp < 10 ? mp + 3 : mp - 9;
  Civil c = {(int)(y + (m <= 2)), (int)m, (int)d};
  return c;
}

TALLY_DEV int days_in_month(int y, int m) {
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (m == 2) return leap ? 29 : 28;
  return (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31;
}

// d + months, clamping the day to the end of the target month (PostgreSQL).
TALLY_DEV i64 add_months(i64 days, i64 months) {
  const Civil c = civil_from_days(days);
  const i64 total = (i64)c.year * 12 + (c.month - 1) + months;
  const i64 year = total >= 0 ? total / 12 : (total - 11) / 12;
  const int month = (int)(total - year * 12) + 1;
  const int dim = days_in_month((int)year, month);
  return days_from_civil(year, month, c.day < dim ? c.day : dim);
}

// ---- aggregate inputs for GROUP BY keys -------------------------------------------------
// Floating-point keys group 0.0 with -0.0 and every NaN together (as the CPU engine does).
TALLY_DEV u64 float_key_bits(f64 v) {
  if (v == 0.0) v = 0.0;
  if (v != v) return 0x7FF8000000000000ull;
  return (u64)__double_as_longlong(v);
}

}  // namespace tally
