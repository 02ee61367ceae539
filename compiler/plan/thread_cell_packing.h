// Packing a thread's narrow running sums into shared 64-bit words. A scan with per-thread
// tables in shared memory loads and stores every cell of a row's slot once per row; sums
// that the statistics bound to a few bits each (a row count, a quantity, a discount) share
// one word, added to with one 64-bit add, and come apart only at the block's flush. That
// is exact only when no field's sum can carry into the next: every packed value is
// non-negative and a field's bits hold the most one thread can add up.
#pragma once

#include <cstdint>
#include <vector>

namespace tally {

// Where one state field lives: its own cell (word < 0), or `bits` bits of packed word
// `word` starting at bit `shift`.
struct CellPlace {
  int word = -1;
  uint32_t shift = 0;
  uint32_t bits = 0;
};

struct PackedCells {
  std::vector<CellPlace> place;  // per state field
  uint32_t words = 0;
};

// Bits a thread's sum of non-negative values up to `max_value` over at most `rows` rows
// needs (at least 1); 0 when it does not fit a 64-bit word or max_value is negative.
uint32_t lane_sum_bits(long double max_value, uint64_t rows);

// Packs the fields with lane_bits[f] > 0 into as few words as first-fit decreasing finds.
// A word that would hold one field alone is not made: that field keeps its own cell.
PackedCells pack_thread_cells(const std::vector<uint32_t>& lane_bits);

}  // namespace tally
