// THE table of aggregate functions. One entry per function: its names, its typing rule, how
// it treats DISTINCT, and the state it keeps for an argument type (aggregate_state.h).
// The binder, --explain, the CPU engine, the GPU planner and the code generator all read it;
// adding an aggregate is an entry here and the aggregate's own file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/common/types.h"
#include "compiler/functions/aggregate_state.h"

namespace tally {

enum class AggKind : uint8_t {
  CountStar,
  Count,
  Sum,
  Min,
  Max,
  Avg,
  VarSamp,
  StddevSamp,
  BoolAnd,
  BoolOr,
  CountIf,
  BitAnd,
  BitOr,
  BitXor,
  Product,
  AnyValue,
  ArgMin,
  ArgMax,
  CovarPop,
  CovarSamp,
  Corr,
  RegrSlope,
  RegrIntercept,
  RegrCount,
  RegrR2,
  RegrAvgX,
  RegrAvgY,
  RegrSxx,
  RegrSyy,
  RegrSxy,
  Skewness,
  Kurtosis,
  Median,
  QuantileCont,
  QuantileDisc,
  PercentileCont,
  PercentileDisc,
  Mode,
  StringAgg,
  Last,
  FirstOrdered,
  LastOrdered,
  ApproxCountDistinct,
};

// A result type, or why the argument type is not accepted.
struct AggregateTyping {
  std::optional<Type> result;
  const char* error = nullptr;  // set when result is empty
  // The type the argument is cast to before it reaches the state (PRODUCT multiplies
  // DOUBLEs), so every engine's state sees one type; none: the argument's own.
  std::optional<Type> cast_arg = std::nullopt;
  // The same for the second argument of an aggregate of two (COVAR_POP(y, x) casts both).
  std::optional<Type> cast_key = std::nullopt;
};

enum class DistinctRule : uint8_t {
  Accepted,  // COUNT/SUM/AVG(DISTINCT x): each value once per group
  Ignored,   // MIN/MAX/BOOL_AND: the same answer with or without it
  Rejected,  // not supported (an error names the function)
};

// What a call passes besides its argument, as a constant.
enum class AggExtra : uint8_t {
  None,
  Fraction,   // QUANTILE_CONT(x, 0.25): a second argument in [0, 1]
  Separator,  // STRING_AGG(x, '; '): an optional second argument, a string (default ',')
};

// Whether a call takes WITHIN GROUP (ORDER BY x), which then gives the argument.
enum class WithinGroupRule : uint8_t {
  Rejected,  // not an ordered-set aggregate
  Accepted,  // MODE() WITHIN GROUP (ORDER BY x) or MODE(x)
  Required,  // PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY x)
};

struct AggregateFunction {
  AggKind kind;
  const char* name;                     // as --explain and errors spell it
  std::vector<std::string_view> names;  // the SQL names it is called by (upper case)
  DistinctRule distinct;
  AggregateTyping (*typing)(const Type& arg);
  StateKind (*state)(const Type& arg);
  // Set for the aggregates of two arguments (ARG_MIN(value, key)): their typing, given both
  // types; `typing` is then unused and `state` gets the first argument's type.
  AggregateTyping (*typing_pair)(const Type& arg, const Type& key) = nullptr;
  AggExtra extra = AggExtra::None;
  WithinGroupRule within_group = WithinGroupRule::Rejected;
  // The entry a call with ORDER BY inside runs (FIRST(x ORDER BY y), STRING_AGG itself);
  // null: the order does not change the answer and is ignored, as DuckDB does.
  const AggregateFunction* ordered = nullptr;
};

const AggregateFunction& aggregate_function(AggKind kind);

// The aggregate a SQL function name (upper case) calls; nullptr if none. COUNT resolves
// to Count: the binder turns COUNT(*) into CountStar.
const AggregateFunction* find_aggregate(std::string_view upper_name);

// Every aggregate's SQL names, lower case (for "did you mean").
std::vector<std::string> aggregate_names();

inline const char* aggregate_sql_name(AggKind kind) { return aggregate_function(kind).name; }
inline const StateInfo& aggregate_state(AggKind kind, const Type& arg) {
  return state_info(aggregate_function(kind).state(arg));
}

}  // namespace tally
