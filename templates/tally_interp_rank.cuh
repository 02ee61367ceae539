// The interpreted tier's ORDER BY ... LIMIT over more groups than the host should finish
// (compiler/codegen/row_program.h, RowProgram::top): each group's first ORDER BY value as
// one 64-bit rank that sorts as the value does, so that the device can keep the groups
// ranked at or before the k-th (a radix select over the ranks, templates/tally_interp_top.cuh)
// and the host sorts only those. Two neighbouring values may share a rank; the host's exact
// sort of every group so kept still puts the right k first. Host C++ reads the same ranks
// (tests/unit/support/row_program_host.h).
#pragma once

#include "tally_interp.cuh"

namespace tally_interp {

constexpr u32 kTopDescending = 1, kTopNullsFirst = 2;
// A slot without a group ranks after every group.
constexpr u64 kRankEmpty = ~0ull;

// The first ORDER BY key: group key `key`'s value, or (key < 0) state field `field`'s low 64
// bits, NULL where field `count_field` (>= 0) holds 0.
struct TopOrder {
  int key, field, count_field;
  u32 flags;  // kTopDescending | kTopNullsFirst
};

// Group key k's digit of the mixed-radix group number (row_group): the key's value less its
// lowest, so digits order as values do; the last digit is NULL.
TALLY_HD u64 key_digit(const Program& p, int k, u64 group) {
  for (int j = p.key_count - 1; j > k; --j) group /= p.keys[j].size;
  return group % p.keys[k].size;
}

// A value's rank under `flags`: its sign flipped and its lowest bit dropped, so that every
// non-NULL rank fits between the NULLs' first and last places.
TALLY_HD u64 order_rank(i64 value, bool null, u32 flags) {
  const bool nulls_first = (flags & kTopNullsFirst) != 0;
  if (null) return nulls_first ? 0 : kRankEmpty - 1;
  u64 rank = ((u64)value ^ 0x8000000000000000ull) >> 1;
  if (flags & kTopDescending) rank = 0x7FFFFFFFFFFFFFFFull - rank;
  return nulls_first ? rank + 1 : rank;
}

// Group `group`'s rank; cell(f) is the low 64 bits of its state field f.
template <class Cell>
TALLY_HD u64 group_rank(const Program& p, const TopOrder& o, u64 group, const Cell& cell) {
  if (o.key >= 0) {
    const u64 digit = key_digit(p, o.key, group);
    return order_rank((i64)digit, digit == p.keys[o.key].size - 1, o.flags);
  }
  const bool null = o.count_field >= 0 && cell(o.count_field) == 0;
  return order_rank(cell(o.field), null, o.flags);
}

// The radix select's digits: 8 bits a pass, from the top.
constexpr u32 kRankDigitBits = 8;
constexpr u32 kRankBins = 1u << kRankDigitBits;

// Whether `rank` lies in the range a pass at `shift` counts: its bits above the pass's digit
// equal `prefix`'s.
TALLY_HD bool rank_in_prefix(u64 rank, u64 prefix, u32 shift) {
  const u32 above = shift + kRankDigitBits;
  return above >= 64 || (rank >> above) == (prefix >> above);
}

}  // namespace tally_interp
