// Final functions of aggregates whose state is exact integers, shared verbatim by the
// CPU engine (host C++) and the generated GPU Finalizer (NVRTC), so both engines turn
// equal states into bit-identical results.
#pragma once

#include "tally_host_device.cuh"

namespace tally_finals {

typedef __int128 i128;
typedef unsigned __int128 u128;
typedef unsigned long long u64;

// 256-bit two's-complement value as four 64-bit limbs, least significant first.
struct I256 {
  u64 w[4];
};

TALLY_HD I256 i256_from(i128 v) {
  u128 u = static_cast<u128>(v);
  u64 fill = v < 0 ? ~0ull : 0ull;
  I256 r = {{static_cast<u64>(u), static_cast<u64>(u >> 64), fill, fill}};
  return r;
}

TALLY_HD I256 i256_sub(I256 a, I256 b) {
  I256 r;
  u64 borrow = 0;
  for (int i = 0; i < 4; ++i) {
    u64 d = a.w[i] - b.w[i];
    u64 b1 = a.w[i] < b.w[i];
    u64 d2 = d - borrow;
    u64 b2 = d < borrow;
    r.w[i] = d2;
    borrow = b1 | b2;
  }
  return r;
}

TALLY_HD bool i256_negative(I256 a) { return (a.w[3] >> 63) != 0; }

TALLY_HD I256 i256_negate(I256 a) {
  I256 zero = {{0, 0, 0, 0}};
  return i256_sub(zero, a);
}

// Unsigned 128 x 128 -> 256 multiply by 64-bit limbs.
TALLY_HD I256 u256_mul(u128 a, u128 b) {
  u64 x[2] = {static_cast<u64>(a), static_cast<u64>(a >> 64)};
  u64 y[2] = {static_cast<u64>(b), static_cast<u64>(b >> 64)};
  I256 r = {{0, 0, 0, 0}};
  for (int i = 0; i < 2; ++i) {
    u128 carry = 0;
    for (int j = 0; j < 2; ++j) {
      u128 cur = static_cast<u128>(x[i]) * y[j] + r.w[i + j] + carry;
      r.w[i + j] = static_cast<u64>(cur);
      carry = cur >> 64;
    }
    r.w[i + 2] = static_cast<u64>(carry);
  }
  return r;
}

// Signed 128 x 128 -> 256.
TALLY_HD I256 i256_mul(i128 a, i128 b) {
  bool negative = (a < 0) != (b < 0);
  u128 ua = a < 0 ? -static_cast<u128>(a) : static_cast<u128>(a);
  u128 ub = b < 0 ? -static_cast<u128>(b) : static_cast<u128>(b);
  I256 r = u256_mul(ua, ub);
  return negative ? i256_negate(r) : r;
}

TALLY_HD double i256_to_double(I256 a) {
  bool negative = i256_negative(a);
  if (negative) a = i256_negate(a);
  double r = 0.0;
  for (int i = 3; i >= 0; --i) r = r * 18446744073709551616.0 + static_cast<double>(a.w[i]);
  return negative ? -r : r;
}

TALLY_HD I256 i256_add(I256 a, I256 b) {
  I256 r;
  u64 carry = 0;
  for (int i = 0; i < 4; ++i) {
    u64 s = a.w[i] + b.w[i];
    u64 c1 = s < a.w[i];
    r.w[i] = s + carry;
    carry = c1 | (r.w[i] < s);
  }
  return r;
}

// a * 2^bits for 0 <= bits < 128, in two's complement (bits shifted out are lost).
TALLY_HD I256 i256_shl(I256 a, int bits) {
  I256 r = {{0, 0, 0, 0}};
  const int limbs = bits / 64, rest = bits % 64;
  for (int i = 3; i >= limbs; --i) {
    const u64 lo = a.w[i - limbs];
    const u64 below = i - limbs - 1 >= 0 ? a.w[i - limbs - 1] : 0ull;
    r.w[i] = rest == 0 ? lo : (lo << rest) | (below >> (64 - rest));
  }
  return r;
}

// n * a for a >= 0: false when the product passes 255 bits (it would read as negative).
TALLY_HD bool i256_mul_u64(I256 a, u64 n, I256* out) {
  u64 carry = 0;
  for (int i = 0; i < 4; ++i) {
    const u128 cur = static_cast<u128>(a.w[i]) * n + carry;
    out->w[i] = static_cast<u64>(cur);
    carry = static_cast<u64>(cur >> 64);
  }
  return carry == 0 && !i256_negative(*out);
}

// A value split at `bits` as GPU variance states keep it, so that each part's square or
// product fits 128 bits where x^2 does not: x = high * 2^bits + low, 0 <= low < 2^bits (the
// shift floors). Values within 62 bits split in 64-bit arithmetic: each product fits 63.
TALLY_HD i128 split_high(i128 x, int bits) { return x >> bits; }
TALLY_HD i128 split_low(i128 x, int bits) { return x & ((static_cast<i128>(1) << bits) - 1); }
TALLY_HD long long split_high(long long x, int bits) { return x >> bits; }
TALLY_HD long long split_low(long long x, int bits) { return x & ((1ll << bits) - 1); }

// The sum of squares of values split at `bits` from the sums of high^2, high*low and low^2:
// sum(x^2) = sum(high^2) 2^(2 bits) + sum(high*low) 2^(bits+1) + sum(low^2).
TALLY_HD I256 split_square_sum(i128 high_sq, i128 cross, i128 low_sq, int bits) {
  return i256_add(
      i256_add(i256_shl(i256_from(high_sq), 2 * bits), i256_shl(i256_from(cross), bits + 1)),
      i256_from(low_sq));
}

// The sample variance of the exact numerator n*sumsq - sum^2 (unscaled at `scale` decimal
// digits): its conversion to double is the one rounding. Requires n >= 2.
TALLY_HD double variance_of_numerator(I256 num, long long n, int scale) {
  double v = i256_to_double(num) / (static_cast<double>(n) * static_cast<double>(n - 1));
  for (int i = 0; i < 2 * scale; ++i) v /= 10.0;
  return v < 0.0 ? 0.0 : v;
}

// The exact variance of a 256-bit sum of squares (>= 0); false when n * sumsq passes 255
// bits. Equal states give variance_exact's bits: the numerator is the same integer.
TALLY_HD_OUTLINED bool variance_exact_wide(long long n, i128 sum, I256 sumsq, int scale,
                                           double* out) {
  I256 scaled;
  if (!i256_mul_u64(sumsq, static_cast<u64>(n), &scaled)) return false;
  *out = variance_of_numerator(i256_sub(scaled, i256_mul(sum, sum)), n, scale);
  return true;
}

// A GPU variance state split at `bits` (the planner bounds its sums so nothing overflows).
TALLY_HD_OUTLINED double variance_split(long long n, i128 sum, i128 high_sq, i128 cross,
                                        i128 low_sq, int bits, int scale) {
  double v = 0.0;
  variance_exact_wide(n, sum, split_square_sum(high_sq, cross, low_sq, bits), scale, &v);
  return v;
}

// Sample variance from an exact state (n values, their sum and sum of squares, all
// unscaled at `scale` decimal digits): (n*sumsq - sum^2) / (n*(n-1)) / 10^(2*scale).
// The numerator is computed exactly in 256 bits, so there is no cancellation; the one
// rounding is its conversion to double. Requires n >= 2.
TALLY_HD_OUTLINED double variance_exact(long long n, i128 sum, i128 sumsq, int scale) {
  return variance_of_numerator(i256_sub(i256_mul(static_cast<i128>(n), sumsq), i256_mul(sum, sum)),
                               n, scale);
}

// Sample variance from the sum of squared deviations from the mean (M2), which both
// engines compute without cancellation: the CPU by Welford/Chan, the GPU by a second pass
// over the rows once the group means are known. Requires n >= 2.
TALLY_HD double variance_from_m2(long long n, double m2) {
  double v = m2 / (static_cast<double>(n) - 1.0);
  return v < 0.0 ? 0.0 : v;
}

// AVG of integers/DECIMAL: sum (unscaled at in_scale) / n at out_scale digits, rounded
// half away from zero. Returns false when the scaled sum overflows 128 bits.
TALLY_HD_OUTLINED bool average_exact(i128 sum, long long n, int in_scale, int out_scale,
                                     i128* out) {
  const i128 limit = static_cast<i128>((~static_cast<u128>(0)) >> 1) / 10;
  i128 num = sum;
  for (int i = in_scale; i < out_scale; ++i) {
    if (num > limit || num < -limit) return false;
    num *= 10;
  }
  // A scaled sum that fits 64 bits divides in 64 bits: the same truncated quotient and
  // remainder, at a fraction of the cost of the 128-bit software division.
  const i128 i64_max = static_cast<i128>(0x7fffffffffffffffll);
  if (num >= -i64_max && num <= i64_max) {
    const long long a = static_cast<long long>(num);
    long long q = a / n;
    const long long r = a % n;
    const u64 ar = r < 0 ? 0ull - static_cast<u64>(r) : static_cast<u64>(r);
    if (2 * ar >= static_cast<u64>(n)) q += a < 0 ? -1 : 1;
    *out = static_cast<i128>(q);
    return true;
  }
  i128 q = num / n;
  const i128 r = num - q * n;  // num % n without a second 128-bit division
  i128 ar = r < 0 ? -r : r;
  if (2 * ar >= static_cast<i128>(n)) q += num < 0 ? -1 : 1;
  *out = q;
  return true;
}

// AVG of HUGEINTs as a DOUBLE (DuckDB's type): the whole quotient and the remainder's
// fraction, both exact before their one rounding each, so host and device agree bit for bit.
TALLY_HD_OUTLINED double average_double(i128 sum, long long n) {
  const i128 q = sum / n;
  const i128 r = sum - q * n;
  return static_cast<double>(q) + static_cast<double>(static_cast<long long>(r)) / n;
}

}  // namespace tally_finals
