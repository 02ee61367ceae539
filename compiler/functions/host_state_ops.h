// Steps several aggregates' host states share: checked sums and their combination.
#pragma once

#include <string>

#include "compiler/common/decimal.h"
#include "compiler/common/error.h"
#include "compiler/functions/aggregate_state.h"
#include "templates/tally_finals.cuh"

namespace tally::aggregates {

[[noreturn]] inline void overflow(const char* what) {
  throw Error(ErrorKind::Execution, std::string(what) + " out of range");
}

inline int128 add_exact(int128 a, int128 b, const char* what) {
  auto r = checked_add(a, b);
  if (!r) overflow(what);
  return *r;
}

// An integer, HUGEINT or DECIMAL argument as its unscaled 128-bit value.
inline int128 exact_value(const Value& v, const Type& arg) { return arg.is_exact128() ? v.d : v.i; }

// An exact variance's 256-bit sum of squares: sumsq's bits below, sumsq_high's above.
inline tally_finals::I256 square_sum(const HostAggState& s) {
  const auto lo = static_cast<unsigned __int128>(s.sumsq);
  const auto hi = static_cast<unsigned __int128>(s.sumsq_high);
  return {{static_cast<uint64_t>(lo), static_cast<uint64_t>(lo >> 64), static_cast<uint64_t>(hi),
           static_cast<uint64_t>(hi >> 64)}};
}

inline void set_square_sum(HostAggState& s, const tally_finals::I256& v) {
  auto word = [&](int i) {
    return static_cast<int128>((static_cast<unsigned __int128>(v.w[i + 1]) << 64) | v.w[i]);
  };
  s.sumsq = word(0);
  s.sumsq_high = word(2);
}

// A count and an exact sum of integers or unscaled DECIMALs (SUM, AVG).
inline void update_exact_sum(HostAggState& s, const Value& v, const AggContext& ctx) {
  ++s.count;
  s.sum = add_exact(s.sum, exact_value(v, ctx.arg), "sum");
}

// A count and a floating-point sum (SUM, AVG of REAL and DOUBLE).
inline void update_double_sum(HostAggState& s, const Value& v, const AggContext&) {
  ++s.count;
  s.fsum += v.f;
}

// Counts and sums add up; an exact sum that overflows is an error.
inline void combine_sums(HostAggState& into, const HostAggState& from, const AggContext&) {
  into.count += from.count;
  into.sum = add_exact(into.sum, from.sum, "sum");
  into.sumsq = add_exact(into.sumsq, from.sumsq, "variance");
  into.fsum += from.fsum;
  into.fsumsq += from.fsumsq;
}

// The combination of two running-moment states when either holds no values: the other one.
// False when both do, and the moments must be merged.
inline bool combine_with_empty(HostAggState& into, const HostAggState& from) {
  if (from.count == 0) return true;
  if (into.count != 0) return false;
  into = from;
  return true;
}

// A double's bits in the result cell, as the Finalizer writes floats.
inline std::string double_bits(const std::string& d) {
  return "(i128)(u64)__double_as_longlong(" + d + ")";
}

}  // namespace tally::aggregates
