// APPROX_COUNT_DISTINCT's HyperLogLog sketch (templates/tally_hll.cuh): the estimate stays
// within its error bound, sketches of parts merge to the whole's, and the estimate rounds
// the same under any logarithm within an ulp (so device code can give it bit for bit).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>

#include "compiler/functions/aggregate_function.h"
#include "templates/tally_hll.cuh"

namespace tally {
namespace {

HostAggState sketch_of(int64_t begin, int64_t end, const AggContext& ctx) {
  const StateInfo& s = aggregate_state(AggKind::ApproxCountDistinct, ctx.arg);
  HostAggState state;
  for (int64_t v = begin; v < end; ++v) s.update(state, Value::from_int(v), ctx);
  return state;
}

}  // namespace

TEST_CASE("approx count distinct: estimates within three standard errors") {
  AggContext ctx;
  ctx.arg = ctx.result = Type::bigint();
  const StateInfo& s = aggregate_state(AggKind::ApproxCountDistinct, ctx.arg);
  for (int64_t n : {1, 10, 1000, 3000, 20000, 100000}) {
    INFO("distinct values " << n);
    const int64_t estimate = s.final(sketch_of(0, n, ctx), ctx).i;
    CHECK(std::llabs(estimate - n) <= std::llround(0.0975 * static_cast<double>(n)) + 1);
  }
  CHECK(s.final(HostAggState{}, ctx).i == 0);
}

TEST_CASE("approx count distinct: merged sketches equal the whole's - repeats change nothing") {
  AggContext ctx;
  ctx.arg = ctx.result = Type::bigint();
  const StateInfo& s = aggregate_state(AggKind::ApproxCountDistinct, ctx.arg);
  const HostAggState whole = sketch_of(0, 5000, ctx);
  HostAggState left = sketch_of(0, 3000, ctx), right = sketch_of(2000, 5000, ctx);
  s.combine(left, right, ctx);
  CHECK(left.sketch == whole.sketch);
  HostAggState empty;
  s.combine(empty, whole, ctx);
  CHECK(empty.sketch == whole.sketch);
  CHECK(s.final(left, ctx).i == s.final(whole, ctx).i);
}

TEST_CASE("approx count distinct: linear counting never rounds at a tie") {
  const double m = tally_hll::kRegisters;
  for (int empty = 1; empty < tally_hll::kRegisters; ++empty) {
    const double e = m * std::log(m / empty);
    const double fraction = e - std::floor(e);
    INFO("empty registers " << empty);
    CHECK(std::fabs(fraction - 0.5) > 1e-6);
  }
}

TEST_CASE("approx count distinct: rank and register of a hash") {
  CHECK(tally_hll::register_of(~0ull) == tally_hll::kRegisters - 1);
  CHECK(tally_hll::rank_of(~0ull) == 1);
  CHECK(tally_hll::rank_of(0) == tally_hll::kMaxRank);
  CHECK(tally_hll::register_of(0) == 0);
}

}  // namespace tally
