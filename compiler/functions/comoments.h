// The co-moment state the aggregates of (y, x) share (COVAR_POP/SAMP, CORR, REGR_*): pairs
// where either argument is NULL never reach it (PostgreSQL). The binder casts both
// arguments to DOUBLE. On the host it keeps the count, both means, both sums of squared
// deviations and the sum of products of deviations, by Welford-style updates and Chan's
// pairwise combination, so large means beside a small spread lose nothing to
// cancellation; on the device a first pass sums y and x and a second pass sums deviations
// from those means (templates/tally_stat_finals.cuh turns either into central co-moments).
// Each aggregate differs only in its final, one of tally_stats::CoMomentStat.
#pragma once

#include <string>
#include <vector>

#include "compiler/functions/aggregate_function.h"

namespace tally::aggregates {

// The state of the co-moment aggregate `kind` whose final returns statistic `stat`
// (tally_stats::CoMomentStat).
StateInfo comoment_state(StateKind kind, const char* name, int stat);

// REGR_COUNT: the same state, its count as BIGINT (0 over no pairs, as PostgreSQL's).
StateInfo regr_count_state();

// Both arguments numeric (or an untyped NULL): a DOUBLE result, both cast to DOUBLE.
AggregateTyping comoment_typing_pair(const Type& y, const Type& x);

// The one-argument typing of a two-argument aggregate: refused (the binder only asks it
// which type an untyped NULL first argument takes).
AggregateTyping comoment_typing(const Type& arg);

// An entry of the aggregate table for a co-moment aggregate.
AggregateFunction comoment_function(AggKind kind, const char* name,
                                    std::vector<std::string_view> names,
                                    StateKind (*state)(const Type&));

}  // namespace tally::aggregates
