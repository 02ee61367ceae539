// The linear regression aggregates of PostgreSQL, REGR_*(y, x): the least-squares fit of y on
// x over the pairs where neither is NULL. DOUBLE, except REGR_COUNT (BIGINT); each the
// co-moment state of comoments.h with its own final.
#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/comoments.h"
#include "templates/tally_stat_finals.cuh"

namespace tally::aggregates {

namespace {

// The state kind of each function; the table lists the functions in AggKind order.
template <StateKind Kind>
StateKind state(const Type&) {
  return Kind;
}

AggregateTyping count_typing_pair(const Type& y, const Type& x) {
  AggregateTyping t = comoment_typing_pair(y, x);
  if (t.result) t.result = Type::bigint();
  return t;
}

AggregateFunction regr(AggKind kind, const char* name, StateKind (*s)(const Type&)) {
  return comoment_function(kind, name, {name}, s);
}

}  // namespace

const StateInfo kRegrSlopeState =
    comoment_state(StateKind::RegrSlope, "RegrSlope", tally_stats::kRegrSlope);
const StateInfo kRegrInterceptState =
    comoment_state(StateKind::RegrIntercept, "RegrIntercept", tally_stats::kRegrIntercept);
const StateInfo kRegrCountState = regr_count_state();
const StateInfo kRegrR2State = comoment_state(StateKind::RegrR2, "RegrR2", tally_stats::kRegrR2);
const StateInfo kRegrAvgXState =
    comoment_state(StateKind::RegrAvgX, "RegrAvgX", tally_stats::kRegrAvgX);
const StateInfo kRegrAvgYState =
    comoment_state(StateKind::RegrAvgY, "RegrAvgY", tally_stats::kRegrAvgY);
const StateInfo kRegrSxxState =
    comoment_state(StateKind::RegrSxx, "RegrSxx", tally_stats::kRegrSxx);
const StateInfo kRegrSyyState =
    comoment_state(StateKind::RegrSyy, "RegrSyy", tally_stats::kRegrSyy);
const StateInfo kRegrSxyState =
    comoment_state(StateKind::RegrSxy, "RegrSxy", tally_stats::kRegrSxy);

const AggregateFunction kRegrSlope =
    regr(AggKind::RegrSlope, "REGR_SLOPE", state<StateKind::RegrSlope>);
const AggregateFunction kRegrIntercept =
    regr(AggKind::RegrIntercept, "REGR_INTERCEPT", state<StateKind::RegrIntercept>);
const AggregateFunction kRegrCount = {AggKind::RegrCount, "REGR_COUNT",
                                      {"REGR_COUNT"},     DistinctRule::Rejected,
                                      comoment_typing,    state<StateKind::RegrCount>,
                                      count_typing_pair};
const AggregateFunction kRegrR2 = regr(AggKind::RegrR2, "REGR_R2", state<StateKind::RegrR2>);
const AggregateFunction kRegrAvgX =
    regr(AggKind::RegrAvgX, "REGR_AVGX", state<StateKind::RegrAvgX>);
const AggregateFunction kRegrAvgY =
    regr(AggKind::RegrAvgY, "REGR_AVGY", state<StateKind::RegrAvgY>);
const AggregateFunction kRegrSxx = regr(AggKind::RegrSxx, "REGR_SXX", state<StateKind::RegrSxx>);
const AggregateFunction kRegrSyy = regr(AggKind::RegrSyy, "REGR_SYY", state<StateKind::RegrSyy>);
const AggregateFunction kRegrSxy = regr(AggKind::RegrSxy, "REGR_SXY", state<StateKind::RegrSxy>);

}  // namespace tally::aggregates
