// The states of aggregates: what each keeps while rows arrive (its fields, on the GPU one
// array per field over the group slots), how a value goes in and two states combine on the
// host, and the final step on both engines (templates/tally_finals.cuh holds the finals the
// host and the device share verbatim). Every state is algebraic: a fixed-size value with an
// identity, a merge, a combine and a final. DISTINCT wraps a state rather than being one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/common/string_heap.h"
#include "compiler/common/types.h"
#include "compiler/common/value.h"

namespace tally {

// One field of a state, as the device keeps it: an array over the group slots.
enum class FieldKind : uint8_t {
  Count,      // u64: values merged (the row count when the argument is never NULL)
  SumI128,    // exact sum of integers or unscaled DECIMALs
  SumF64,     // floating-point sum
  SumSqI128,  // exact sum of squares
  SumSqF64,   // DOUBLE variance, second pass: sum of squared deviations from the mean
  DevSumF64,  // DOUBLE variance, second pass: sum of deviations from the mean
  MinI64,
  MaxI64,
  MinI128,
  MaxI128,
  MinF64,
  MaxF64,
  AndI64,      // BIT_AND
  OrI64,       // BIT_OR
  XorI64,      // BIT_XOR
  ProductF64,  // PRODUCT
  // The co-moment states (COVAR, CORR, REGR_*) of (y, x): y's fields are the variance's,
  // these x's and the cross term, all of rows where neither argument is NULL.
  SumKeyF64,     // sum of x
  DevSqKeyF64,   // second pass: sum of x's squared deviations from its mean
  DevSumKeyF64,  // second pass: sum of x's deviations from its mean
  CoDevF64,      // second pass: sum of the products of y's and x's deviations
  // The higher moments of SKEWNESS and KURTOSIS, second pass.
  DevCubeF64,
  DevFourthF64,
  // ARG_MIN / ARG_MAX: the ordering argument and the value packed in one word
  // (templates/tally_arg_pair.cuh).
  ArgMinPair,
  ArgMaxPair,
  // APPROX_COUNT_DISTINCT: 2^10 one-byte HyperLogLog registers (templates/tally_hll.cuh).
  HllSketch,
  // An exact variance whose squares pass 128 bits, its values split as high * 2^b + low
  // (templates/tally_finals.cuh split_square_sum): the sums of high^2, high*low, low^2.
  SumSqHighI128,
  SumSqCrossI128,
  SumSqLowI128,
  // ARG_MIN / ARG_MAX of a DECIMAL wider than 18 digits, in two passes: the best key's image,
  // then the least value's image among the rows holding that key (second pass).
  ArgKeyMinI128,
  ArgKeyMaxI128,
  ArgValueAtKey,
  // COUNT(DISTINCT x) over a domain of at most 64 values: bit x - base of each value seen.
  DistinctBits,
};

// SketchAdd: a row's hash raises one register of the sketch to its rank.
enum class MergeOp : uint8_t { Add, Min, Max, BitAnd, BitOr, BitXor, Mul, SketchAdd };

// What one row merges into a field.
enum class FieldInput : uint8_t {
  One,              // 1 per non-NULL value
  Value,            // the value
  Square,           // the value squared (exact)
  Deviation,        // the value minus its group's mean (second pass)
  DeviationSquare,  // that deviation squared (second pass)
  Key,              // the second argument's value
  KeyDeviation,     // the second argument minus its group's mean (second pass)
  KeyDeviationSquare,
  CoDeviation,  // the product of both arguments' deviations (second pass)
  DeviationCube,
  DeviationFourth,
  ArgMinPair,  // the (key, value) word of templates/tally_arg_pair.cuh
  ArgMaxPair,
  Hash,           // the value's 64-bit hash (templates/tally_hll.cuh)
  SquareHigh,     // a split value's high part squared (exact)
  SquareCross,    // its high part times its low part
  SquareLow,      // its low part squared
  ArgKeyImage,    // the second argument's order-preserving 128-bit image
  ArgValueAtKey,  // the value's 128-bit image where the key is its group's best, else none
  ValueBit,       // 1 << (the value - its domain's base: StateLayout::distinct_base)
};

struct FieldInfo {
  const char* name;       // as generated names spell it: "count", "sum", "sum_sq", ...
  const char* cuda_type;  // the device library's type: u64, i64, i128, f64, tally_hll::Sketch
  int bytes;
  const char* identity;  // a CUDA expression: the value merging into it changes nothing
  MergeOp merge;
  FieldInput input;
  bool second_pass;  // merged by a second pass over the rows, after the first has finished
};
const FieldInfo& field_info(FieldKind kind);

// A running state on the host; each state kind uses the members it needs.
struct HostAggState {
  int64_t count = 0;
  int128 sum = 0;
  int128 sumsq = 0;       // an exact variance: the low 128 bits of its sum of squares
  int128 sumsq_high = 0;  // and the high 128 (compiler/functions/variance.cpp)
  double fsum = 0;
  double fsumsq = 0;
  Value extreme;  // MIN/MAX so far; NULL until the first value
  Value key;      // ARG_MIN/ARG_MAX: the least (greatest) key so far, `extreme` its value
  // An exact variance whose sums passed 128 bits (the sum) or 255 (the squares): its final
  // reads the running mean and M2 (fsum, fsumsq) kept beside the exact sums.
  bool inexact = false;
  // The co-moment states (compiler/functions/comoments.h): fsum and fsumsq hold y's mean and
  // M2, these x's and the sum of products of deviations (C_xy).
  double mean_x = 0;
  double m2_x = 0;
  double c_xy = 0;
  // SKEWNESS and KURTOSIS: the third and fourth central moment sums beside fsum (the mean)
  // and fsumsq (M2).
  double m3 = 0;
  double m4 = 0;
  // Holistic states (MEDIAN, MODE, STRING_AGG, compiler/functions/value_lists.h): every
  // value of the group, and for an aggregate with ORDER BY inside each value's sort keys
  // (AggContext::order.size() of them per value, flattened).
  std::vector<Value> values;
  std::vector<Value> sort_keys;
  // APPROX_COUNT_DISTINCT's HyperLogLog registers (templates/tally_hll.cuh); empty until
  // the first value.
  std::vector<uint8_t> sketch;
};

// One ORDER BY item inside an aggregate call (STRING_AGG(x, ',' ORDER BY y DESC)).
struct AggOrderKey {
  Type type;
  bool descending = false;
  bool nulls_first = false;
};

// What the host steps of a state need to know of their call.
struct AggContext {
  Type arg;     // argument type (BIGINT for COUNT(*))
  Type result;  // final type
  const StringHeap* strings = nullptr;
  Type key = Type::bigint();  // the second argument's type, for aggregates that take one
  // What the holistic aggregates were called with: QUANTILE's fraction (MEDIAN 0.5),
  // WITHIN GROUP (ORDER BY x DESC), STRING_AGG's separator and ORDER BY keys, and the heap
  // a final that builds a string interns it in.
  double fraction = 0.5;
  bool descending = false;
  std::string separator = ",";
  std::vector<AggOrderKey> order;
  StringHeap* results = nullptr;
};

// The device final of one group: C expressions for the state's fields (in StateInfo::fields
// order), for the result cell (an i128; floats as their bits) and its NULL flag, and the
// scales the final needs. `status` names the kernel's status word.
struct DeviceFinal {
  std::vector<std::string> fields;
  std::string out;
  std::string null;
  int in_scale = 0;
  int out_scale = 0;
  bool float_out = false;    // the result is REAL or DOUBLE: the cell holds a double's bits
  bool hugeint_out = false;  // the result is a HUGEINT: all of int128 is in range
  int square_split = 0;      // a split variance state: the bits its values split at
  bool wide_value = false;   // the argument is a DECIMAL wider than 18 digits
};

enum class StateKind : uint8_t {
  Count,
  SumInt,
  SumWide,
  SumDouble,
  MinInt,
  MaxInt,
  MinWide,
  MaxWide,
  MinDouble,
  MaxDouble,
  AvgWide,
  AvgDouble,
  VarianceWide,
  VarianceDouble,
  StddevWide,
  StddevDouble,
  CountIf,
  BitAnd,
  BitOr,
  BitXor,
  Product,
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
  QuantileCont,
  QuantileDisc,
  Mode,
  StringAgg,
  FirstOrdered,
  LastOrdered,
  ApproxDistinct,
  SumInterval,
  AvgInterval,
  // The GPU's form of VarianceWide / StddevWide where squares pass 128 bits (the planner
  // picks it; the host steps are the wide ones).
  VarianceSplit,
  StddevSplit,
  // The GPU's form of ArgMin / ArgMax where an argument is a DECIMAL wider than 18 digits.
  ArgMinWide,
  ArgMaxWide,
  // The GPU's form of COUNT(DISTINCT x) where x takes at most 64 values: the set of values
  // seen as one word's bits, merged by OR, counted at the end (no DISTINCT set).
  CountDistinctBits,
};

// How a state's exact 128-bit sums grow with the rows: the GPU planner refuses a state whose
// sum could overflow (the device cannot report the carry the host reports).
enum class SumGrowth : uint8_t { None, Linear, Square };

struct StateInfo {
  StateKind kind;
  const char* name;  // for --explain
  // fields[0] is a Count (a group with none has a NULL final); the rest in final order.
  std::vector<FieldKind> fields;
  SumGrowth growth;
  // The final is one of the argument's own values (MIN/MAX): a string final decodes
  // through the argument's dictionary or string domain.
  bool returns_argument;
  void (*update)(HostAggState& state, const Value& v, const AggContext& ctx);
  void (*combine)(HostAggState& into, const HostAggState& from, const AggContext& ctx);
  // Throws Error(Execution) when the result does not fit its type.
  Value (*final)(const HostAggState& state, const AggContext& ctx);
  std::string (*device_final)(const DeviceFinal& d);
  // The update of an aggregate of two arguments (ARG_MIN): a row whose either is NULL
  // never reaches it. Null for one argument.
  void (*update_pair)(HostAggState& state, const Value& v, const Value& key,
                      const AggContext& ctx) = nullptr;
  // Keeps more than fixed fields: every value (compiler/functions/value_lists.h) or a
  // sketch. The partial-state codec (api/partial_codec.cpp) refuses it; the GPU runs only
  // the sketch (a 1 KiB field), the value lists have no device_final.
  bool holistic = false;
  // Why the device state cannot hold this call's argument types (an aggregate of two
  // arguments); null or a null result: it can.
  const char* (*device_refusal)(const Type& arg, const Type& key) = nullptr;
};
const StateInfo& state_info(StateKind kind);

}  // namespace tally
