// COVAR_POP(y, x), COVAR_SAMP(y, x) and CORR(y, x) (PostgreSQL): DOUBLE, over the pairs where
// neither argument is NULL; the co-moment state of comoments.h, each with its own final.
#include "compiler/functions/aggregate_entries.h"
#include "compiler/functions/comoments.h"
#include "templates/tally_stat_finals.cuh"

namespace tally::aggregates {

namespace {

StateKind covar_pop(const Type&) { return StateKind::CovarPop; }
StateKind covar_samp(const Type&) { return StateKind::CovarSamp; }
StateKind corr(const Type&) { return StateKind::Corr; }

}  // namespace

const StateInfo kCovarPopState =
    comoment_state(StateKind::CovarPop, "CovarPop", tally_stats::kCovarPop);
const StateInfo kCovarSampState =
    comoment_state(StateKind::CovarSamp, "CovarSamp", tally_stats::kCovarSamp);
const StateInfo kCorrState = comoment_state(StateKind::Corr, "Corr", tally_stats::kCorr);

const AggregateFunction kCovarPop =
    comoment_function(AggKind::CovarPop, "COVAR_POP", {"COVAR_POP"}, covar_pop);
const AggregateFunction kCovarSamp =
    comoment_function(AggKind::CovarSamp, "COVAR_SAMP", {"COVAR_SAMP"}, covar_samp);
const AggregateFunction kCorr = comoment_function(AggKind::Corr, "CORR", {"CORR"}, corr);

}  // namespace tally::aggregates
