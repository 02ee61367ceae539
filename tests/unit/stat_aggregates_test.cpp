// The statistical aggregates' host states (COVAR_POP/SAMP, CORR, REGR_*, SKEWNESS,
// KURTOSIS): their names and typing, finals against textbook formulas evaluated exactly, and
// states split into parts and combined in any order giving the one-pass final to 1e-9
// relative (values near 1e9 spread over 1e3 carry ~1e-10 in their deviations from means the
// parts round differently).
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "compiler/functions/aggregate_function.h"
#include "templates/tally_stat_finals.cuh"

namespace tally {
namespace {

struct Pair {
  Value y, x;
};

Pair pair(double y, double x) { return {Value::from_double(y), Value::from_double(x)}; }

AggContext context(AggKind kind) {
  const AggregateFunction& f = aggregate_function(kind);
  const Type result = f.typing_pair ? *f.typing_pair(Type::double_(), Type::double_()).result
                                    : *f.typing(Type::double_()).result;
  AggContext ctx;
  ctx.arg = Type::double_();
  ctx.result = result;
  ctx.key = Type::double_();
  return ctx;
}

// As agg_merge: a pair with a NULL never reaches the state.
void add(const StateInfo& s, HostAggState& state, const Pair& p, const AggContext& ctx) {
  if (p.y.null) return;
  if (!s.update_pair) return s.update(state, p.y, ctx);
  if (!p.x.null) s.update_pair(state, p.y, p.x, ctx);
}

HostAggState fold(const StateInfo& s, const std::vector<Pair>& rows, size_t begin, size_t end,
                  const AggContext& ctx) {
  HostAggState state;
  for (size_t i = begin; i < end; ++i) add(s, state, rows[i], ctx);
  return state;
}

// Equal NULLs, equal integers (REGR_COUNT), or DOUBLEs within `relative`.
bool same(const Value& a, const Value& b, const Type& type, double relative) {
  if (a.null || b.null) return a.null == b.null;
  if (!type.is_float()) return a.i == b.i;
  if (a.f == b.f) return true;
  return std::fabs(a.f - b.f) <= relative * std::max(std::fabs(a.f), std::fabs(b.f));
}

// The one-pass final equals that of the rows cut at every point into two parts combined
// either way round, and into three parts combined right to left.
void check_splits(AggKind kind, const std::vector<Pair>& rows) {
  const AggContext ctx = context(kind);
  const StateInfo& s = aggregate_state(kind, Type::double_());
  const Value whole = s.final(fold(s, rows, 0, rows.size(), ctx), ctx);
  for (size_t cut = 0; cut <= rows.size(); ++cut) {
    INFO(std::string(aggregate_sql_name(kind))
         << " split at " << cut << " of " << rows.size() << ", one pass: " << whole.f);
    HostAggState left = fold(s, rows, 0, cut, ctx), right = fold(s, rows, cut, rows.size(), ctx);
    HostAggState lr = left, rl = right, empty;
    s.combine(lr, right, ctx);
    s.combine(rl, left, ctx);
    s.combine(empty, lr, ctx);
    INFO("combined: " << s.final(lr, ctx).f);
    CHECK(same(s.final(lr, ctx), whole, ctx.result, 1e-9));
    CHECK(same(s.final(rl, ctx), whole, ctx.result, 1e-9));
    CHECK(same(s.final(empty, ctx), whole, ctx.result, 1e-9));
    const size_t third = cut / 2;
    HostAggState a = fold(s, rows, 0, third, ctx), b = fold(s, rows, third, cut, ctx);
    s.combine(b, right, ctx);
    s.combine(a, b, ctx);
    CHECK(same(s.final(a, ctx), whole, ctx.result, 1e-9));
  }
}

const AggKind kCoMomentKinds[] = {AggKind::CovarPop,  AggKind::CovarSamp,     AggKind::Corr,
                                  AggKind::RegrSlope, AggKind::RegrIntercept, AggKind::RegrCount,
                                  AggKind::RegrR2,    AggKind::RegrAvgX,      AggKind::RegrAvgY,
                                  AggKind::RegrSxx,   AggKind::RegrSyy,       AggKind::RegrSxy};

// Pairs with NULLs, a large offset and a spread a million times smaller.
std::vector<Pair> noisy_pairs(double offset, int n) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<Pair> rows;
  for (int i = 0; i < n; ++i) {
    const double x = offset + unit(random) * 1e3, y = 2 * offset - 0.5 * x + unit(random) * 1e2;
    rows.push_back(pair(y, x));
    if (i % 7 == 0) rows.push_back({Value(), Value::from_double(x)});
    if (i % 11 == 0) rows.push_back({Value::from_double(y), Value()});
  }
  return rows;
}

// The exact central co-moments of the non-NULL pairs, in long double over two passes.
tally_stats::CoMoments exact_comoments(const std::vector<Pair>& rows) {
  long double n = 0, sx = 0, sy = 0;
  for (const Pair& p : rows) {
    if (p.x.null || p.y.null) continue;
    n += 1, sx += p.x.f, sy += p.y.f;
  }
  const long double mx = sx / n, my = sy / n;
  long double sxx = 0, syy = 0, sxy = 0;
  for (const Pair& p : rows) {
    if (p.x.null || p.y.null) continue;
    sxx += (p.x.f - mx) * (p.x.f - mx), syy += (p.y.f - my) * (p.y.f - my);
    sxy += (p.x.f - mx) * (p.y.f - my);
  }
  return {static_cast<double>(n),   static_cast<double>(mx),  static_cast<double>(my),
          static_cast<double>(sxx), static_cast<double>(syy), static_cast<double>(sxy)};
}

}  // namespace

TEST_CASE("stat aggregates: names resolve and the typing takes numbers to DOUBLE") {
  for (const char* name :
       {"COVAR_POP", "COVAR_SAMP", "CORR", "REGR_SLOPE", "REGR_INTERCEPT", "REGR_COUNT", "REGR_R2",
        "REGR_AVGX", "REGR_AVGY", "REGR_SXX", "REGR_SYY", "REGR_SXY"}) {
    INFO(name);
    const AggregateFunction* f = find_aggregate(name);
    REQUIRE(f != nullptr);
    REQUIRE(static_cast<bool>(f->typing_pair));
    const AggregateTyping t = f->typing_pair(Type::integer(), Type::decimal(8, 2));
    REQUIRE(t.result.has_value());
    CHECK(*t.result == (f->kind == AggKind::RegrCount ? Type::bigint() : Type::double_()));
    CHECK(*t.cast_arg == Type::double_());
    CHECK(*t.cast_key == Type::double_());
    CHECK_FALSE(f->typing_pair(Type::varchar(), Type::integer()).result.has_value());
    CHECK_FALSE(f->typing_pair(Type::integer(), Type::date()).result.has_value());
    CHECK(f->distinct == DistinctRule::Rejected);
  }
  for (const char* name : {"SKEWNESS", "KURTOSIS"}) {
    const AggregateFunction* f = find_aggregate(name);
    REQUIRE(f != nullptr);
    CHECK_FALSE(static_cast<bool>(f->typing_pair));
    CHECK(*f->typing(Type::bigint()).result == Type::double_());
    CHECK(*f->typing(Type::bigint()).cast_arg == Type::double_());
    CHECK_FALSE(f->typing(Type::boolean()).result.has_value());
  }
}

TEST_CASE("stat aggregates: every entry sits at its kind - every state starts with a count") {
  for (int k = static_cast<int>(AggKind::CovarPop); k <= static_cast<int>(AggKind::Kurtosis); ++k) {
    CHECK(static_cast<int>(aggregate_function(static_cast<AggKind>(k)).kind) == k);
  }
  for (int k = static_cast<int>(StateKind::CovarPop); k <= static_cast<int>(StateKind::Kurtosis);
       ++k) {
    const StateInfo& s = state_info(static_cast<StateKind>(k));
    CHECK(static_cast<int>(s.kind) == k);
    CHECK(s.fields.at(0) == FieldKind::Count);
    CHECK(static_cast<bool>(s.device_final));
    CHECK(static_cast<bool>(s.update_pair) == (k < static_cast<int>(StateKind::Skewness)));
  }
}

TEST_CASE("stat aggregates: co-moment states split and combined equal one pass") {
  std::vector<Pair> small = {pair(1, 2),
                             pair(2, 4),
                             {Value(), Value::from_double(3)},
                             pair(4, 5),
                             {Value::from_double(7), Value()},
                             pair(5, 9)};
  for (AggKind kind : kCoMomentKinds) {
    check_splits(kind, small);
    check_splits(kind, noisy_pairs(1e9, 60));
    check_splits(kind, {pair(3, 1), pair(3, 1), pair(3, 1)});  // no spread: NULLs agree
  }
}

TEST_CASE("stat aggregates: the co-moment finals keep their digits beside a large offset") {
  const std::vector<Pair> rows = noisy_pairs(1e9, 500);
  const tally_stats::CoMoments want = exact_comoments(rows);
  auto final_of = [&](AggKind kind) {
    const AggContext ctx = context(kind);
    const StateInfo& s = aggregate_state(kind, Type::double_());
    return s.final(fold(s, rows, 0, rows.size(), ctx), ctx).f;
  };
  CHECK(final_of(AggKind::CovarPop) == doctest::Approx(want.sxy / want.n).epsilon(1e-9));
  CHECK(final_of(AggKind::CovarSamp) == doctest::Approx(want.sxy / (want.n - 1)).epsilon(1e-9));
  CHECK(final_of(AggKind::Corr) ==
        doctest::Approx(want.sxy / std::sqrt(want.sxx * want.syy)).epsilon(1e-9));
  CHECK(final_of(AggKind::RegrSlope) == doctest::Approx(want.sxy / want.sxx).epsilon(1e-9));
  CHECK(final_of(AggKind::RegrIntercept) ==
        doctest::Approx(want.mean_y - want.mean_x * want.sxy / want.sxx).epsilon(1e-9));
  CHECK(final_of(AggKind::RegrSxx) == doctest::Approx(want.sxx).epsilon(1e-9));
  CHECK(final_of(AggKind::RegrSyy) == doctest::Approx(want.syy).epsilon(1e-9));
  CHECK(final_of(AggKind::RegrAvgX) == doctest::Approx(want.mean_x).epsilon(1e-12));
}

TEST_CASE("stat aggregates: the GPU's two-pass sums give the host's co-moments") {
  // Pairs (y, x) = (1, 2), (2, 4), (4, 5), (5, 9) with a first-pass mean off by 0.25 in x:
  // the deviation sums correct it.
  const double sum_y = 12, sum_x = 20.0 + 1.0;  // as if x's first pass had summed 21
  const double my = sum_y / 4, mx = sum_x / 4;
  const double ys[] = {1, 2, 4, 5}, xs[] = {2, 4, 5, 9};
  double dsy = 0, dsx = 0, dqy = 0, dqx = 0, co = 0;
  for (int i = 0; i < 4; ++i) {
    dsy += ys[i] - my, dsx += xs[i] - mx, dqy += (ys[i] - my) * (ys[i] - my);
    dqx += (xs[i] - mx) * (xs[i] - mx), co += (ys[i] - my) * (xs[i] - mx);
  }
  const auto m = tally_stats::comoments_of_passes(4, sum_y, dqy, dsy, sum_x, dqx, dsx, co);
  CHECK(m.mean_x == doctest::Approx(5));
  CHECK(m.mean_y == doctest::Approx(3));
  CHECK(m.sxx == doctest::Approx(26));
  CHECK(m.syy == doctest::Approx(10));
  CHECK(m.sxy == doctest::Approx(15));
  // Values all equal whose first-pass mean missed them by an ulp: the corrected sum of
  // squares is a few ulps of nothing (here made 1.5 times the rounding's), which is no spread.
  const double tenth = 0.1, sum = 0.1 + 0.1 + 0.1, mean = sum / 3, d = tenth - mean;
  REQUIRE(d != 0.0);
  const auto flat = tally_stats::comoments_of_passes(3, 1, 0, 0, sum, 4.5 * d * d, 3 * d, 0);
  CHECK(flat.sxx == 0.0);
  CHECK(flat.sxy == 0.0);
}

TEST_CASE("stat aggregates: SKEWNESS and KURTOSIS follow DuckDB and split exactly") {
  auto values = [](std::initializer_list<double> v) {
    std::vector<Pair> rows;
    for (double x : v) rows.push_back({Value::from_double(x), Value()});
    return rows;
  };
  auto final_of = [](AggKind kind, const std::vector<Pair>& rows) {
    const AggContext ctx = context(kind);
    const StateInfo& s = aggregate_state(kind, Type::double_());
    return s.final(fold(s, rows, 0, rows.size(), ctx), ctx);
  };
  // 1, 2, 3, 10: deviations -3 -2 -1 6 from 4; m2 = 12.5, m3 = 45, m4 = 348.5.
  const auto four = values({1, 2, 3, 10});
  CHECK(final_of(AggKind::Skewness, four).f ==
        doctest::Approx(std::sqrt(12.0) / 2 * 45 / std::pow(12.5, 1.5)).epsilon(1e-12));
  CHECK(final_of(AggKind::Kurtosis, four).f == doctest::Approx(3.228).epsilon(1e-12));
  CHECK(final_of(AggKind::Skewness, values({1, 2})).null);
  CHECK(final_of(AggKind::Kurtosis, values({1, 2, 4})).null);
  CHECK(final_of(AggKind::Skewness, values({5, 5, 5})).null);
  CHECK(final_of(AggKind::Kurtosis, values({5, 5, 5, 5})).null);
  std::vector<Pair> offset;
  for (const Pair& p : noisy_pairs(1e6, 80)) offset.push_back({p.x, Value()});
  for (AggKind kind : {AggKind::Skewness, AggKind::Kurtosis}) {
    check_splits(kind, four);
    check_splits(kind, offset);
  }
}

}  // namespace tally
