// The host's half of the interpreter's radix select (runtime/gpu/rank_select.h): the
// threshold keeps every group ranked at or before the k-th, ties included, and no slot
// without a group.
#include "runtime/gpu/rank_select.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "templates/tally_interp_rank.cuh"

namespace tally {

namespace {

uint64_t kept_by(const std::vector<uint64_t>& ranks, uint64_t threshold) {
  return static_cast<uint64_t>(std::count_if(ranks.begin(), ranks.end(), [&](uint64_t r) {
    return r != tally_interp::kRankEmpty && r <= threshold;
  }));
}

}  // namespace

TEST_CASE("rank select: keeps the k first ranks and their ties") {
  std::mt19937_64 random(7);
  for (const uint64_t spread : {uint64_t{4}, uint64_t{1000}, uint64_t{1} << 40, ~uint64_t{0} / 2}) {
    std::vector<uint64_t> ranks(50000);
    for (uint64_t& r : ranks) r = random() % spread;
    for (size_t i = 0; i < ranks.size(); i += 5) ranks[i] = tally_interp::kRankEmpty;
    std::vector<uint64_t> sorted;
    for (const uint64_t r : ranks) {
      if (r != tally_interp::kRankEmpty) sorted.push_back(r);
    }
    std::sort(sorted.begin(), sorted.end());
    for (const uint64_t needed : {uint64_t{1}, uint64_t{10}, uint64_t{3000}}) {
      INFO("spread " << spread << ", needed " << needed);
      const RankSelect select = select_ranks_on_host(ranks, needed);
      REQUIRE(select.done());
      const uint64_t kth = sorted[needed - 1];
      CHECK(select.threshold() >= kth);
      CHECK(select.kept() == kept_by(ranks, select.threshold()));
      // nothing past the k-th rank's ties unless few enough groups for the host
      CHECK((select.kept() <= std::max(needed, kRankSelectEnough) || select.threshold() == kth));
    }
  }
}

TEST_CASE("rank select: fewer groups than needed keeps them all and LIMIT 0 keeps none") {
  const std::vector<uint64_t> ranks = {5, tally_interp::kRankEmpty, tally_interp::kRankEmpty - 1,
                                       0};
  const RankSelect all = select_ranks_on_host(ranks, 10);
  CHECK(all.kept() == 3);
  CHECK(all.threshold() == tally_interp::kRankEmpty - 1);
  const RankSelect none = select_ranks_on_host(ranks, 0);
  CHECK(none.kept() == 0);
}

TEST_CASE("rank select: ranks order as the ORDER BY key does") {
  using tally_interp::order_rank;
  const uint32_t desc = tally_interp::kTopDescending, first = tally_interp::kTopNullsFirst;
  CHECK(order_rank(-5, false, 0) < order_rank(3, false, 0));
  CHECK(order_rank(INT64_MIN, false, 0) <= order_rank(INT64_MIN + 1, false, 0));
  CHECK(order_rank(3, false, desc) < order_rank(-5, false, desc));
  CHECK(order_rank(INT64_MAX, false, 0) < order_rank(0, true, 0));
  CHECK(order_rank(0, true, first) < order_rank(INT64_MIN, false, first));
  CHECK(order_rank(INT64_MIN, false, desc) < order_rank(0, true, desc));
  CHECK(order_rank(0, true, desc | first) < order_rank(INT64_MAX, false, desc | first));
  CHECK(order_rank(0, true, 0) < tally_interp::kRankEmpty);
}

}  // namespace tally
