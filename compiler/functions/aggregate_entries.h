// The entries of the aggregate table, each defined in its aggregate's own file and listed
// once in aggregate_table.cpp.
#pragma once

#include "compiler/functions/aggregate_function.h"

namespace tally::aggregates {

// count.cpp
extern const StateInfo kCountState;
extern const AggregateFunction kCountStar, kCount;
// sum.cpp
extern const StateInfo kSumIntState, kSumWideState, kSumDoubleState;
extern const AggregateFunction kSum;
// average.cpp
extern const StateInfo kAvgWideState, kAvgDoubleState;
extern const AggregateFunction kAvg;
// interval_sum.cpp (SUM and AVG of INTERVAL)
extern const StateInfo kSumIntervalState, kAvgIntervalState;
// min_max.cpp
extern const StateInfo kMinIntState, kMaxIntState, kMinWideState, kMaxWideState, kMinDoubleState,
    kMaxDoubleState;
extern const AggregateFunction kMin, kMax;
// variance.cpp
extern const StateInfo kVarianceWideState, kVarianceDoubleState, kStddevWideState,
    kStddevDoubleState, kVarianceSplitState, kStddevSplitState;
extern const AggregateFunction kVarSamp, kStddevSamp;
// bool_and_or.cpp
extern const AggregateFunction kBoolAnd, kBoolOr;
// count_if.cpp
extern const StateInfo kCountIfState;
extern const AggregateFunction kCountIf;
// bit_ops.cpp
extern const StateInfo kBitAndState, kBitOrState, kBitXorState;
extern const AggregateFunction kBitAnd, kBitOr, kBitXor;
// product.cpp
extern const StateInfo kProductState;
extern const AggregateFunction kProduct;
// any_value.cpp
extern const AggregateFunction kAnyValue;
// arg_min_max.cpp
extern const StateInfo kArgMinState, kArgMaxState, kArgMinWideState, kArgMaxWideState;
extern const StateInfo kCountDistinctBitsState;
extern const AggregateFunction kArgMin, kArgMax;
// covariance.cpp (the co-moment state: comoments.h)
extern const StateInfo kCovarPopState, kCovarSampState, kCorrState;
extern const AggregateFunction kCovarPop, kCovarSamp, kCorr;
// regression.cpp
extern const StateInfo kRegrSlopeState, kRegrInterceptState, kRegrCountState, kRegrR2State,
    kRegrAvgXState, kRegrAvgYState, kRegrSxxState, kRegrSyyState, kRegrSxyState;
extern const AggregateFunction kRegrSlope, kRegrIntercept, kRegrCount, kRegrR2, kRegrAvgX,
    kRegrAvgY, kRegrSxx, kRegrSyy, kRegrSxy;
// moments.cpp
extern const StateInfo kSkewnessState, kKurtosisState;
extern const AggregateFunction kSkewness, kKurtosis;
// quantiles.cpp (the value lists of the holistic states: value_lists.h)
extern const StateInfo kQuantileContState, kQuantileDiscState;
extern const AggregateFunction kMedian, kQuantileCont, kQuantileDisc, kPercentileCont,
    kPercentileDisc;
// mode.cpp
extern const StateInfo kModeState;
extern const AggregateFunction kMode;
// string_agg.cpp
extern const StateInfo kStringAggState;
extern const AggregateFunction kStringAgg;
// first_last.cpp
extern const StateInfo kFirstOrderedState, kLastOrderedState;
extern const AggregateFunction kLast, kFirstOrdered, kLastOrdered;
// approx_count_distinct.cpp (the sketch: templates/tally_hll.cuh)
extern const StateInfo kApproxDistinctState;
extern const AggregateFunction kApproxCountDistinct;

}  // namespace tally::aggregates
