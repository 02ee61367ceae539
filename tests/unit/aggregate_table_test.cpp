// The aggregate table (compiler/functions/): names, typing, states, and that every entry
// sits where its kind says.
#include <doctest/doctest.h>

#include <algorithm>

#include "compiler/functions/aggregate_function.h"

namespace tally {
namespace {

const Type kMoney = Type::decimal(12, 2);

StateKind state_of(AggKind kind, const Type& arg) { return aggregate_state(kind, arg).kind; }

}  // namespace

TEST_CASE("aggregate table: names resolve to their functions") {
  CHECK(find_aggregate("STDDEV")->kind == AggKind::StddevSamp);
  CHECK(find_aggregate("VARIANCE")->kind == AggKind::VarSamp);
  CHECK(find_aggregate("COUNT")->kind == AggKind::Count);
  CHECK(find_aggregate("EVERY")->kind == AggKind::BoolAnd);
  CHECK(find_aggregate("BOOL_OR")->kind == AggKind::BoolOr);
  CHECK(find_aggregate("UPPER") == nullptr);
  CHECK(std::string(aggregate_sql_name(AggKind::CountStar)) == "COUNT");
  const std::vector<std::string> names = aggregate_names();
  CHECK(std::find(names.begin(), names.end(), "bool_and") != names.end());
  CHECK(std::find(names.begin(), names.end(), "stddev_samp") != names.end());
}

TEST_CASE("aggregate table: every entry sits at its kind - every state starts with a count") {
  for (int k = 0; k <= static_cast<int>(AggKind::BoolOr); ++k) {
    const AggregateFunction& f = aggregate_function(static_cast<AggKind>(k));
    CHECK(static_cast<int>(f.kind) == k);
    for (std::string_view n : f.names) CHECK(find_aggregate(n) == &f);
  }
  for (int k = 0; k <= static_cast<int>(StateKind::StddevDouble); ++k) {
    const StateInfo& s = state_info(static_cast<StateKind>(k));
    CHECK(static_cast<int>(s.kind) == k);
    REQUIRE_FALSE(s.fields.empty());
    CHECK(s.fields[0] == FieldKind::Count);
    for (FieldKind f : s.fields)
      CHECK(field_info(f).bytes == (std::string(field_info(f).cuda_type) == "i128" ? 16 : 8));
  }
}

TEST_CASE("aggregate table: the state each argument type keeps") {
  CHECK(state_of(AggKind::Sum, Type::integer()) == StateKind::SumInt);
  CHECK(state_of(AggKind::Sum, kMoney) == StateKind::SumWide);
  CHECK(state_of(AggKind::Sum, Type::real()) == StateKind::SumDouble);
  CHECK(state_of(AggKind::Count, Type::integer()) == StateKind::Count);
  CHECK(state_of(AggKind::CountStar, Type::null()) == StateKind::Count);
  CHECK(state_of(AggKind::Min, Type::date()) == StateKind::MinInt);
  CHECK(state_of(AggKind::Max, kMoney) == StateKind::MaxWide);
  CHECK(state_of(AggKind::Max, Type::double_()) == StateKind::MaxDouble);
  CHECK(state_of(AggKind::Avg, Type::bigint()) == StateKind::AvgWide);
  CHECK(state_of(AggKind::Avg, Type::double_()) == StateKind::AvgDouble);
  CHECK(state_of(AggKind::VarSamp, kMoney) == StateKind::VarianceWide);
  CHECK(state_of(AggKind::StddevSamp, Type::real()) == StateKind::StddevDouble);
  CHECK(state_of(AggKind::BoolAnd, Type::boolean()) == StateKind::MinInt);
  CHECK(state_of(AggKind::BoolOr, Type::boolean()) == StateKind::MaxInt);
  CHECK(aggregate_state(AggKind::Min, Type::varchar()).returns_argument);
  CHECK(aggregate_state(AggKind::VarSamp, kMoney).growth == SumGrowth::Square);
}

TEST_CASE("aggregate table: typing rules") {
  CHECK_FALSE(aggregate_function(AggKind::Sum).typing(Type::date()).result.has_value());
  CHECK(aggregate_function(AggKind::Sum).typing(Type::date()).error != nullptr);
  CHECK(*aggregate_function(AggKind::Sum).typing(kMoney).result == Type::decimal(38, 2));
  CHECK(*aggregate_function(AggKind::Avg).typing(Type::integer()).result == Type::decimal(38, 6));
  CHECK(*aggregate_function(AggKind::BoolAnd).typing(Type::boolean()).result == Type::boolean());
  CHECK_FALSE(aggregate_function(AggKind::BoolOr).typing(Type::integer()).result.has_value());
  CHECK(aggregate_function(AggKind::Min).distinct == DistinctRule::Ignored);
  CHECK(aggregate_function(AggKind::StddevSamp).distinct == DistinctRule::Rejected);
}

TEST_CASE("aggregate table: host steps of BOOL_AND and BOOL_OR") {
  AggContext ctx;
  ctx.arg = ctx.result = Type::boolean();
  const StateInfo& all = aggregate_state(AggKind::BoolAnd, Type::boolean());
  const StateInfo& any = aggregate_state(AggKind::BoolOr, Type::boolean());
  HostAggState a, b, none;
  for (bool v : {true, false, true}) {
    all.update(a, Value::from_bool(v), ctx);
    any.update(b, Value::from_bool(v), ctx);
  }
  CHECK(all.final(a, ctx).i == 0);
  CHECK(any.final(b, ctx).i == 1);
  CHECK(all.final(none, ctx).null);
  HostAggState t;
  all.update(t, Value::from_bool(true), ctx);
  all.combine(t, a, ctx);  // true AND (true AND false AND true)
  CHECK(all.final(t, ctx).i == 0);
}

}  // namespace tally
