#include "runtime/gpu/rank_select.h"

#include <algorithm>

#include "templates/tally_interp_rank.cuh"

namespace tally {

RankSelect::RankSelect(uint64_t needed, uint64_t enough)
    : needed_(needed), enough_(enough), shift_(64 - tally_interp::kRankDigitBits) {
  if (needed_ == 0) finish(0, 0);
}

void RankSelect::finish(uint64_t threshold, uint64_t kept) {
  threshold_ = std::min<uint64_t>(threshold, tally_interp::kRankEmpty - 1);
  kept_ = kept;
  done_ = true;
}

void RankSelect::add(const uint32_t* bins) {
  uint64_t below = below_;
  uint32_t digit = 0;
  while (digit < tally_interp::kRankBins && below + bins[digit] < needed_) below += bins[digit++];
  const uint64_t ones = shift_ == 0 ? 0 : (uint64_t{1} << shift_) - 1;
  if (digit == tally_interp::kRankBins) {
    // Fewer groups than needed in the range: keep them all.
    finish(prefix_ | (uint64_t{tally_interp::kRankBins - 1} << shift_) | ones, below);
    return;
  }
  prefix_ |= uint64_t{digit} << shift_;
  below_ = below;
  const uint64_t kept = below + bins[digit];
  if (kept <= enough_ || shift_ == 0) {
    finish(prefix_ | ones, kept);
    return;
  }
  shift_ -= tally_interp::kRankDigitBits;
}

RankSelect select_ranks_on_host(const std::vector<uint64_t>& ranks, uint64_t needed) {
  RankSelect select(needed, std::max(needed, kRankSelectEnough));
  while (!select.done()) {
    std::vector<uint32_t> bins(tally_interp::kRankBins, 0);
    for (const uint64_t rank : ranks) {
      if (rank == tally_interp::kRankEmpty ||
          !tally_interp::rank_in_prefix(rank, select.prefix(), select.shift()))
        continue;
      ++bins[(rank >> select.shift()) & (tally_interp::kRankBins - 1)];
    }
    select.add(bins.data());
  }
  return select;
}

}  // namespace tally
