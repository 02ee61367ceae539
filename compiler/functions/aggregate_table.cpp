// The aggregate table: every function, every state kind and every state field, listed once.
#include <algorithm>
#include <array>
#include <cctype>

#include "compiler/common/error.h"
#include "compiler/functions/aggregate_entries.h"

namespace tally {

namespace {

using namespace aggregates;

// In AggKind order.
constexpr std::array<const AggregateFunction*, 43> kFunctions = {
    &kCountStar,
    &kCount,
    &kSum,
    &kMin,
    &kMax,
    &kAvg,
    &kVarSamp,
    &kStddevSamp,
    &kBoolAnd,
    &kBoolOr,
    &kCountIf,
    &kBitAnd,
    &kBitOr,
    &kBitXor,
    &kProduct,
    &kAnyValue,
    &kArgMin,
    &kArgMax,
    &kCovarPop,
    &kCovarSamp,
    &kCorr,
    &kRegrSlope,
    &kRegrIntercept,
    &kRegrCount,
    &kRegrR2,
    &kRegrAvgX,
    &kRegrAvgY,
    &kRegrSxx,
    &kRegrSyy,
    &kRegrSxy,
    &kSkewness,
    &kKurtosis,
    &kMedian,
    &kQuantileCont,
    &kQuantileDisc,
    &kPercentileCont,
    &kPercentileDisc,
    &kMode,
    &kStringAgg,
    &kLast,
    &kFirstOrdered,
    &kLastOrdered,
    &kApproxCountDistinct,
};

// In StateKind order.
constexpr std::array<const StateInfo*, 51> kStates = {
    &kCountState,         &kSumIntState,         &kSumWideState,
    &kSumDoubleState,     &kMinIntState,         &kMaxIntState,
    &kMinWideState,       &kMaxWideState,        &kMinDoubleState,
    &kMaxDoubleState,     &kAvgWideState,        &kAvgDoubleState,
    &kVarianceWideState,  &kVarianceDoubleState, &kStddevWideState,
    &kStddevDoubleState,  &kCountIfState,        &kBitAndState,
    &kBitOrState,         &kBitXorState,         &kProductState,
    &kArgMinState,        &kArgMaxState,         &kCovarPopState,
    &kCovarSampState,     &kCorrState,           &kRegrSlopeState,
    &kRegrInterceptState, &kRegrCountState,      &kRegrR2State,
    &kRegrAvgXState,      &kRegrAvgYState,       &kRegrSxxState,
    &kRegrSyyState,       &kRegrSxyState,        &kSkewnessState,
    &kKurtosisState,      &kQuantileContState,   &kQuantileDiscState,
    &kModeState,          &kStringAggState,      &kFirstOrderedState,
    &kLastOrderedState,   &kApproxDistinctState, &kSumIntervalState,
    &kAvgIntervalState,   &kVarianceSplitState,  &kStddevSplitState,
    &kArgMinWideState,    &kArgMaxWideState,     &kCountDistinctBitsState,
};

constexpr const char* kI128Max = "i128_from_words(~0ull, 0x7FFFFFFFFFFFFFFFull)";
constexpr const char* kI128Min = "i128_from_words(0ull, 0x8000000000000000ull)";
// MIN's identity is NaN, above every double in SQL's order (templates/tally_types.cuh
// sql_less), so that a MIN over NaN alone stays NaN.
constexpr const char* kMinF64 = "__longlong_as_double(0x7FF8000000000000ll)";
constexpr const char* kMaxF64 = "__longlong_as_double((long long)0xFFF0000000000000ull)";

// In FieldKind order.
const std::array<FieldInfo, 32> kFields = {{
    {"count", "u64", 8, "0", MergeOp::Add, FieldInput::One, false},
    {"sum", "i128", 16, "0", MergeOp::Add, FieldInput::Value, false},
    {"sum", "f64", 8, "0.0", MergeOp::Add, FieldInput::Value, false},
    {"sum_sq", "i128", 16, "0", MergeOp::Add, FieldInput::Square, false},
    {"dev_sq", "f64", 8, "0.0", MergeOp::Add, FieldInput::DeviationSquare, true},
    {"dev_sum", "f64", 8, "0.0", MergeOp::Add, FieldInput::Deviation, true},
    {"min", "i64", 8, "kI64Max", MergeOp::Min, FieldInput::Value, false},
    {"max", "i64", 8, "kI64Min", MergeOp::Max, FieldInput::Value, false},
    {"min", "i128", 16, kI128Max, MergeOp::Min, FieldInput::Value, false},
    {"max", "i128", 16, kI128Min, MergeOp::Max, FieldInput::Value, false},
    {"min", "f64", 8, kMinF64, MergeOp::Min, FieldInput::Value, false},
    {"max", "f64", 8, kMaxF64, MergeOp::Max, FieldInput::Value, false},
    {"bit_and", "i64", 8, "(i64)-1", MergeOp::BitAnd, FieldInput::Value, false},
    {"bit_or", "i64", 8, "0", MergeOp::BitOr, FieldInput::Value, false},
    {"bit_xor", "i64", 8, "0", MergeOp::BitXor, FieldInput::Value, false},
    {"product", "f64", 8, "1.0", MergeOp::Mul, FieldInput::Value, false},
    {"sum_x", "f64", 8, "0.0", MergeOp::Add, FieldInput::Key, false},
    {"dev_sq_x", "f64", 8, "0.0", MergeOp::Add, FieldInput::KeyDeviationSquare, true},
    {"dev_sum_x", "f64", 8, "0.0", MergeOp::Add, FieldInput::KeyDeviation, true},
    {"co_dev", "f64", 8, "0.0", MergeOp::Add, FieldInput::CoDeviation, true},
    {"dev_cube", "f64", 8, "0.0", MergeOp::Add, FieldInput::DeviationCube, true},
    {"dev_fourth", "f64", 8, "0.0", MergeOp::Add, FieldInput::DeviationFourth, true},
    {"pair", "i128", 16, kI128Max, MergeOp::Min, FieldInput::ArgMinPair, false},
    {"pair", "i128", 16, kI128Min, MergeOp::Max, FieldInput::ArgMaxPair, false},
    {"sketch", "tally_hll::Sketch", 1024, "tally_hll::Sketch{}", MergeOp::SketchAdd,
     FieldInput::Hash, false},
    {"sum_sq_high", "i128", 16, "0", MergeOp::Add, FieldInput::SquareHigh, false},
    {"sum_sq_cross", "i128", 16, "0", MergeOp::Add, FieldInput::SquareCross, false},
    {"sum_sq_low", "i128", 16, "0", MergeOp::Add, FieldInput::SquareLow, false},
    {"arg_key", "i128", 16, kI128Max, MergeOp::Min, FieldInput::ArgKeyImage, false},
    {"arg_key", "i128", 16, kI128Min, MergeOp::Max, FieldInput::ArgKeyImage, false},
    {"arg_value", "i128", 16, kI128Max, MergeOp::Min, FieldInput::ArgValueAtKey, true},
    {"seen", "i64", 8, "0", MergeOp::BitOr, FieldInput::ValueBit, false},
}};

template <typename Table, typename Key>
const auto& entry(const Table& table, Key key, const char* what) {
  const auto i = static_cast<size_t>(key);
  if (i >= table.size()) throw Error(ErrorKind::Internal, std::string("unknown ") + what);
  return table[i];
}

}  // namespace

const AggregateFunction& aggregate_function(AggKind kind) {
  return *entry(kFunctions, kind, "aggregate");
}

const StateInfo& state_info(StateKind kind) { return *entry(kStates, kind, "aggregate state"); }

const FieldInfo& field_info(FieldKind kind) { return entry(kFields, kind, "state field"); }

const AggregateFunction* find_aggregate(std::string_view upper_name) {
  for (const AggregateFunction* f : kFunctions) {
    if (std::find(f->names.begin(), f->names.end(), upper_name) != f->names.end()) return f;
  }
  return nullptr;
}

std::vector<std::string> aggregate_names() {
  std::vector<std::string> names;
  for (const AggregateFunction* f : kFunctions) {
    for (std::string_view n : f->names) {
      std::string lower(n);
      std::transform(lower.begin(), lower.end(), lower.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      names.push_back(std::move(lower));
    }
  }
  return names;
}

}  // namespace tally
