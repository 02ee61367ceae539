#include "compiler/plan/thread_cell_packing.h"

#include <algorithm>
#include <cmath>

namespace tally {

uint32_t lane_sum_bits(long double max_value, uint64_t rows) {
  if (max_value < 0 || max_value >= 0x1p64L) return 0;
  // Exact: below 2^64, long double holds every integer, and the product fits 128 bits.
  const auto top =
      static_cast<unsigned __int128>(static_cast<uint64_t>(std::floor(max_value))) * rows;
  uint32_t bits = 0;
  for (unsigned __int128 n = top; n > 0; n >>= 1) ++bits;
  return bits > 64 ? 0 : std::max<uint32_t>(bits, 1);
}

PackedCells pack_thread_cells(const std::vector<uint32_t>& lane_bits) {
  std::vector<size_t> order;
  for (size_t f = 0; f < lane_bits.size(); ++f) {
    if (lane_bits[f] > 0) order.push_back(f);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return lane_bits[a] > lane_bits[b]; });
  std::vector<uint32_t> used;              // bits taken in each word
  std::vector<std::vector<size_t>> holds;  // fields of each word
  for (size_t f : order) {
    size_t w = 0;
    while (w < used.size() && used[w] + lane_bits[f] > 64) ++w;
    if (w == used.size()) {
      used.push_back(0);
      holds.emplace_back();
    }
    used[w] += lane_bits[f];
    holds[w].push_back(f);
  }
  PackedCells cells;
  cells.place.resize(lane_bits.size());
  for (const auto& fields : holds) {
    if (fields.size() < 2) continue;
    uint32_t shift = 0;
    for (size_t f : fields) {
      cells.place[f] = {static_cast<int>(cells.words), shift, lane_bits[f]};
      shift += lane_bits[f];
    }
    ++cells.words;
  }
  return cells;
}

}  // namespace tally
