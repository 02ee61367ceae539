// tally device library: column decoders, bit for bit the CPU's (runtime/storage/column.h).
//   Plain       native-width little-endian values (BOOLEAN u8, SMALLINT i16, INTEGER/DATE
//               i32, BIGINT/DECIMAL(p<=18) i64, DECIMAL(p>18) i128, REAL f32, DOUBLE f64)
//   BitPacked   value = base + the `bits`-bit field of row i, little-endian inside 64-bit
//               words, a field may straddle two words; dictionary codes are BitPacked
//               with base 0
//   validity    bit (row & 63) of word row >> 6, set = valid; no bitmap = no NULLs
// Loads go through the read-only data cache (__ldg): columns never change during a query.
#pragma once

#include "tally_types.cuh"

namespace tally {

TALLY_DEV u8 load_ro(const u8* p) { return __ldg(p); }
TALLY_DEV i8 load_ro(const i8* p) { return (i8)__ldg((const signed char*)p); }
TALLY_DEV i16 load_ro(const i16* p) { return __ldg(p); }
TALLY_DEV i32 load_ro(const i32* p) { return __ldg(p); }
TALLY_DEV u32 load_ro(const u32* p) { return __ldg(p); }
TALLY_DEV i64 load_ro(const i64* p) { return __ldg(p); }
TALLY_DEV u64 load_ro(const u64* p) { return __ldg(p); }
TALLY_DEV f32 load_ro(const f32* p) { return __ldg(p); }
TALLY_DEV f64 load_ro(const f64* p) { return __ldg(p); }
TALLY_DEV i128 load_ro(const i128* p) {
  const u64* words = (const u64*)p;
  return i128_from_words(__ldg(words), __ldg(words + 1));
}

template <typename T>
struct PlainColumn {
  const T* values;
  TALLY_DEV T get(u64 row) const { return load_ro(values + row); }
};

// The `bits`-bit field of `row`. Reads word w + 1 even when the field ends in word w: the
// storage writer appends one zero word after the last, so that read is always in bounds
// and the decode has no branch around the load. bits == 0 (a constant column) reads
// nothing. With `bits` a compile-time constant the shifts and mask fold away.
TALLY_DEV u64 unpack_bits(const u64* words, u64 row, u32 bits) {
  if (bits == 0) return 0;
  const u64 bit = row * bits;
  const u64 word = bit >> 6;
  const u32 shift = (u32)(bit & 63);
  u64 value = __ldg(words + word) >> shift;
  const u64 next = __ldg(words + word + 1);
  if (shift != 0) value |= next << (64 - shift);  // a shift by 64 would be undefined
  return bits == 64 ? value : value & ((1ull << bits) - 1);
}

// The field of row 64 * group + index (index < 64). The 64 rows of a group fill exactly
// `bits` words, so a warp that walks groups computes index * bits once per lane and each
// row costs one address add; fields straddle two words only when bits does not divide 64.
TALLY_DEV u64 unpack_group_bits(const u64* words, u64 group, u32 index, u32 bits) {
  if (bits == 0) return 0;
  const u32 bit = index * bits;
  const u64* word = words + group * bits + (bit >> 6);
  const u32 shift = bit & 63;
  u64 value = __ldg(word) >> shift;
  if (64 % bits != 0) {
    const u64 next = __ldg(word + 1);
    if (shift != 0) value |= next << (64 - shift);  // a shift by 64 would be undefined
  }
  return bits == 64 ? value : value & ((1ull << bits) - 1);
}

struct BitPackedColumn {
  const u64* words;  // ceil(rows * bits / 64) + 1 words, the last one zero
  i64 base;
  u32 bits;
  // base + field, wrapping like the CPU's int64 addition.
  TALLY_DEV i64 get(u64 row) const { return (i64)((u64)base + unpack_bits(words, row, bits)); }
  TALLY_DEV i64 get(u64 group, u32 index) const {
    return (i64)((u64)base + unpack_group_bits(words, group, index, bits));
  }
};

// A lane's two rows of a 64-row group (index = lane and lane + 32) of a bit-packed column,
// read through 32-bit words: with bits < 32 a field straddles at most two words and one
// funnel shift (SHF.R.W) extracts it, where 64-bit words cost two shifts, an OR and a select
// (little-endian 64-bit words are little-endian pairs of 32-bit words: same bit stream).
// Loading is split from extracting so the scan can load the next group's words before it
// works on this group's rows: the loads are then in flight during the arithmetic.
struct PackedWords32 {
  u32 w[4];  // row lane: w[0], w[1]; row lane + 32: w[2], w[3]
};

// For a column of at most 31 bits whose values base + [0, 2^bits) all fit an i32, in a
// table of fewer than 2^32 rows, so word offsets (rows / 64 * 2 * bits) fit 32 bits; the
// code generator checks both.
struct BitPackedColumn32 {
  const u32* words;
  i32 base;
  u32 bits;
  TALLY_DEV bool straddles() const { return 32 % bits != 0; }
  // Row lane + 32 starts 32 * bits bits later: `bits` words on, at the same shift. The
  // second word of a field that ends in the first stays inside the executor's padding.
  TALLY_DEV void load(u32 group, u32 lane, PackedWords32& p) const {
    const u32* word = words + (group * (2 * bits) + ((lane * bits) >> 5));
    p.w[0] = __ldg(word);
    p.w[2] = __ldg(word + bits);
    if (straddles()) {
      p.w[1] = __ldg(word + 1);
      p.w[3] = __ldg(word + bits + 1);
    }
  }
  TALLY_DEV i32 extract(const PackedWords32& p, u32 lane, u32 half) const {
    const u32 shift = (lane * bits) & 31;
    const u32 lo = half == 0 ? p.w[0] : p.w[2];
    const u32 field = straddles() ? __funnelshift_r(lo, half == 0 ? p.w[1] : p.w[3], shift)
                                  : lo >> shift;
    // Signed: base + field cannot overflow (checked), and the compiler may then fold the
    // base into comparisons and sums.
    return base + (i32)(field & ((1u << bits) - 1));
  }
};

struct Validity {
  const u64* words;  // nullptr when the column has no NULLs
  TALLY_DEV bool valid(u64 row) const {
    return words == nullptr || ((__ldg(words + (row >> 6)) >> (row & 63)) & 1ull) != 0;
  }
};

}  // namespace tally
