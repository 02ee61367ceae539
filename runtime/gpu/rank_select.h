// The host's half of the interpreter's radix select (templates/tally_interp_top.cuh): from
// each pass's histogram of the ranks it picks the digit the k-th smallest rank has, 8 bits a
// pass from the top, until the groups ranked at or before that digit's range are few enough
// to copy out, or every digit is known. A device run and the host runner of the CPU tests
// (tests/unit/support/row_program_host.h) make the same choices.
#pragma once

#include <cstdint>
#include <vector>

namespace tally {

// Below this many groups kept, the host's sort costs less than another pass (1 us a group).
constexpr uint64_t kRankSelectEnough = 2048;

class RankSelect {
 public:
  // `needed`: the rows the statement keeps (OFFSET + LIMIT); `enough`: the most groups the
  // host may take before every digit is known.
  RankSelect(uint64_t needed, uint64_t enough);

  bool done() const { return done_; }
  // The next pass counts the ranks whose bits above shift() + 8 equal prefix()'s.
  uint64_t prefix() const { return prefix_; }
  uint32_t shift() const { return shift_; }
  // The pass's histogram (tally_interp::kRankBins counts by the digit at shift()).
  void add(const uint32_t* bins);

  // Once done(): the groups to keep rank at most threshold() (never a slot without a group),
  // and kept() of them do.
  uint64_t threshold() const { return threshold_; }
  uint64_t kept() const { return kept_; }

 private:
  void finish(uint64_t threshold, uint64_t kept);

  uint64_t needed_, enough_;
  uint64_t prefix_ = 0, below_ = 0;  // below_: ranks before prefix_'s range
  uint32_t shift_;
  bool done_ = false;
  uint64_t threshold_ = 0, kept_ = 0;
};

// The same selection over ranks counted on the host (the CPU tests' mirror of the device's
// passes; tally_interp::kRankEmpty marks no group).
RankSelect select_ranks_on_host(const std::vector<uint64_t>& ranks, uint64_t needed);

}  // namespace tally
