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
