// The table of aggregate functions, read by the binder (names, argument and result types)
// and by both engines (state layout, init/merge/combine/final). Every aggregate is
// algebraic: a fixed-size state, an initial value, merge(state, value), combine(state,
// state) and final(state). COUNT(DISTINCT x) is the exception: its state is a set, and
// the GPU path lowers it to a second grouping level.
#pragma once

#include <optional>
#include <string_view>

#include "compiler/common/types.h"

namespace tally {

enum class AggKind { CountStar, Count, Sum, Min, Max, Avg, VarSamp, StddevSamp };

// How the running state is held: one of these, chosen from the argument type.
enum class AggStateKind {
  Count,           // int64 count
  SumInt,          // int64 sum (+ nonnull flag); integers: overflow checked -> error
  SumWide,         // int128 sum (+ nonnull flag); DECIMAL
  SumDouble,       // double sum (+ nonnull flag)
  MinMaxInt,       // int64 (+ nonnull flag); integers, dates, booleans, string ids*
  MinMaxWide,      // int128; DECIMAL
  MinMaxDouble,    // double
  AvgWide,         // int64 count + int128 sum; integer and DECIMAL arguments (exact)
  AvgDouble,       // int64 count + double sum
  VarianceWide,    // int64 count + int128 sum + int128 sum of squares (exact)
  VarianceDouble,  // int64 count + double sum + double sum of squares
  DistinctSet,     // COUNT(DISTINCT x): a set of values
};

struct AggregateInfo {
  AggKind kind;
  const char* sql_name;  // "COUNT", "SUM", ...
};

// Resolves a SQL function name (upper case) to an aggregate; nullopt if not an aggregate.
// STDDEV is STDDEV_SAMP and VARIANCE is VAR_SAMP.
std::optional<AggKind> aggregate_from_name(std::string_view upper_name);
const char* aggregate_sql_name(AggKind kind);

// Result type of kind(arg), or an explanation of why the argument type is not accepted.
// Rules (PostgreSQL/DuckDB where they agree; README's SQL reference states them):
//   COUNT -> BIGINT
//   SUM(SMALLINT|INTEGER|BIGINT) -> BIGINT (overflow is an error)
//   SUM(DECIMAL(p,s)) -> DECIMAL(38,s); SUM(REAL|DOUBLE) -> DOUBLE
//   MIN/MAX(x) -> type of x (any type but BOOLEAN is ordered false < true)
//   AVG(integer) -> DECIMAL(38,6); AVG(DECIMAL(p,s)) -> DECIMAL(38,max(s,6));
//   AVG(REAL|DOUBLE) -> DOUBLE
//   VAR_SAMP, STDDEV_SAMP -> DOUBLE
struct AggregateTyping {
  std::optional<Type> result;
  const char* error = nullptr;  // set when result is empty
};
AggregateTyping aggregate_result_type(AggKind kind, const Type& arg);

AggStateKind aggregate_state_kind(AggKind kind, bool distinct, const Type& arg);

}  // namespace tally
