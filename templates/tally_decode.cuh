// tally device library: column decoders, bit for bit the CPU's (runtime/storage/column.h).
//   Plain       native-width little-endian values (BOOLEAN u8, SMALLINT i16, INTEGER/DATE
//               i32, BIGINT/DECIMAL(p<=18) i64, DECIMAL(p>18) i128, REAL f32, DOUBLE f64)
//   BitPacked   value = base + the `bits`-bit field of row i, in the device's
//               lane-transposed layout (below); dictionary codes are BitPacked with base 0
//   validity    bit (row & 63) of word row >> 6, set = valid; no bitmap = no NULLs
// Loads go through the read-only data cache (__ldg): columns never change during a query.
#pragma once

#include "tally_lane_field.cuh"
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

// Bit-packed columns on the device are lane-transposed (runtime/gpu/device_layout.h): row
// b * 1024 + 32 j + L is field j of lane L's stream, whose 32-bit word w is word
// b * 32 * bits + 32 w + L. The 32 rows of a step j sit in 32 neighbouring words, so a
// warp reading 32 consecutive rows is coalesced in any walk.

// The `bits`-bit field of `row` (bits <= 64: up to three words). A field that ends inside
// a word reads no further; the executor pads every column so reads one block-row past the
// last field stay in bounds. bits == 0 (a constant column) reads nothing.
TALLY_DEV u64 unpack_bits(const u32* words, u64 row, u32 bits) {
  return tally_lanes::lane_field(words, row, bits);
}

struct BitPackedColumn {
  const u32* words;  // lane_transposed_word_count(rows, bits) words, then padding
  i64 base;
  u32 bits;
  // base + field, wrapping like the CPU's int64 addition.
  TALLY_DEV i64 get(u64 row) const { return (i64)((u64)base + unpack_bits(words, row, bits)); }
};

// A lane's rows `ROWS * chunk` .. `ROWS * chunk + ROWS - 1` (of its 32 in a block) of a
// column of BITS < 32 bits: the words that hold them, loaded together before any row is
// worked on so that their latencies overlap, and the fields cut out of registers with
// shifts that are constants once the scan's loops are unrolled (one SHF, or one funnel
// shift where a field straddles two words, and a mask).
template <u32 BITS, u32 ROWS>
struct LaneChunk {
  static constexpr u32 kWords = (ROWS * BITS + 31) / 32 + 1;
  u32 w[kWords];
  // lane_words: the column's words + block * 32 * BITS + lane.
  TALLY_DEV void load(const u32* lane_words, u32 chunk) {
    const u32 first = chunk * ROWS * BITS / 32, last = ((chunk + 1) * ROWS * BITS - 1) / 32;
#pragma unroll
    for (u32 i = 0; i < kWords; ++i) {
      if (first + i <= last) w[i] = __ldg(lane_words + (first + i) * 32);
    }
  }
  TALLY_DEV u32 field(u32 chunk, u32 step) const {
    const u32 bit = (chunk * ROWS + step) * BITS, i = bit / 32 - chunk * ROWS * BITS / 32;
    const u32 shift = bit & 31;
    const u32 v = shift + BITS > 32 ? __funnelshift_r(w[i], w[i + 1], shift) : w[i] >> shift;
    return v & ((1u << BITS) - 1);
  }
};

// Field `step` (< 32) of a lane's stream in a block, for BITS < 32, where the step is not a
// compile-time constant: scans that do not unroll a block's rows (their bodies are too big
// to copy 32 times) read row by row through this. Both words are read even when the field
// ends in the first: the executor's padding keeps that in bounds.
template <u32 BITS>
TALLY_DEV u32 lane_field32(const u32* lane_words, u32 step) {
  const u32 bit = step * BITS;
  const u32* w = lane_words + (bit >> 5) * 32;
  const u32 v =
      32 % BITS == 0 ? __ldg(w) >> (bit & 31) : __funnelshift_r(__ldg(w), __ldg(w + 32), bit & 31);
  return v & ((1u << BITS) - 1);
}

struct Validity {
  const u64* words;  // nullptr when the column has no NULLs
  TALLY_DEV bool valid(u64 row) const {
    return words == nullptr || ((__ldg(words + (row >> 6)) >> (row & 63)) & 1ull) != 0;
  }
};

}  // namespace tally
