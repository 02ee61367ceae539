// The typed expression IR. The binder produces it from the AST; the CPU engine
// interprets it and the code generator turns it into CUDA, so both read one definition.
// Invariants the binder guarantees (consumers may rely on them):
//  - every node has its final SQL type; implicit conversions are explicit Cast nodes;
//  - Arith/Compare operands have a common type class: both integer (same TypeId),
//    both DECIMAL (scales may differ: consumers align them), both DOUBLE, both DATE
//    (Compare, or Sub giving INTEGER days), DATE +/- INTEGER days, both TIMESTAMP,
//    both BOOLEAN or both VARCHAR (Compare only);
//  - Like patterns, Round digits and DateAdd amounts are constants held in the node;
//  - Function arguments have the types their ScalarFn's rule (compiler/bind/scalar_functions.cpp)
//    gives them; a date unit or TRUNC's digits are constants held in `digits`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "compiler/common/sql_text.h"
#include "compiler/common/types.h"
#include "compiler/common/value.h"

namespace tally {

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

enum class ExprKind {
  ColumnRef,     // index = position in the query's scan columns
  Constant,      // value (or str for VARCHAR); a typed NULL has value.null
  Parameter,     // index = parameter number (0-based); type inferred or from CAST
  GroupKeyRef,   // index = group key number (only above the aggregation)
  AggregateRef,  // index = aggregate number (only above the aggregation)
  Arith,         // op: ArithOp; children a, b
  Negate,        // children[0]
  Compare,       // op: CompareOp; children a, b
  And,           // children (2 or more), SQL three-valued
  Or,            // children (2 or more), SQL three-valued
  Not,           // children[0]
  IsNull,        // children[0]; negated = IS NOT NULL
  InList,        // children[0] = value, children[1..] = list (same type); negated
  Like,          // children[0] = VARCHAR value; str = pattern; negated; op 1: ILIKE
  Case,          // children: when0, then0, when1, then1, ..., else (always present)
  Cast,          // children[0] converted to this node's type
  Coalesce,      // children, all of this node's type
  Abs,           // children[0]
  Round,         // children[0]; digits = places to keep (result scale for DECIMAL)
  Extract,       // op: ExtractField; children[0] a DATE or TIMESTAMP; result BIGINT
  DateAdd,       // children[0] a DATE or TIMESTAMP (this node's type); months, days and
                 // (TIMESTAMP) micros to add, each may be negative
  Function,      // op: ScalarFn; children = arguments; digits: TRUNC places or DateUnit
  Grouping,      // GROUPING(keys): children = GroupKeyRefs; INTEGER, bit set per key not
                 // grouped in the row's grouping set. Replaced by a constant per set
                 // (compiler/ir/grouping_sets.h) before an engine sees it.
  // INTEGER, no children: the grouping set a row is merged into, the last group key of
  // one_pass_grouping_query (compiler/ir/grouping_sets.h); only the GPU's Scan has one.
  GroupingSetId,
};

enum ArithOp : int { kAdd, kSub, kMul, kDiv, kMod };
enum CompareOp : int { kEq, kNe, kLt, kLe, kGt, kGe };
enum ExtractField : int {
  kYear,
  kMonth,
  kDay,
  kQuarter,
  kWeek,     // ISO 8601 week of the year
  kDow,      // 0 = Sunday
  kIsoDow,   // 1 = Monday ... 7 = Sunday
  kDoy,      // 1 ... 366
  kIsoYear,  // the year the ISO week belongs to
  kDecade,
  kCentury,
  kMillennium,
  kEpoch,  // seconds since 1970-01-01
  // The fields of a time of day, TIMESTAMP and TIME only (DuckDB's integers: SECOND is 0..59,
  // MILLISECOND counts the seconds too, 0..59999, MICROSECOND 0..59999999).
  kHour,
  kMinute,
  kSecond,
  kMillisecond,
  kMicrosecond,
};

// The scalar functions of ExprKind::Function (ABS, ROUND and EXTRACT have their own kinds).
enum ScalarFn : int {
  kFloor,
  kCeil,
  kTrunc,  // digits = places to keep
  kSqrt,
  kPower,
  kLn,
  kLog10,
  kLogBase,  // log(b, x)
  kExp,
  kSign,
  kGreatest,  // NULL arguments are skipped, as PostgreSQL does
  kLeast,
  kUpper,
  kLower,
  kLength,  // characters (UTF-8)
  kSubstring,
  kConcatStrict,  // a || b: NULL if either is
  kConcat,        // concat(...): NULL arguments are skipped
  kTrim,
  kLtrim,
  kRtrim,
  kReplace,
  kStartsWith,
  kLeft,
  kRight,
  kDateTrunc,  // digits = DateUnit
  kStrftime,
};

// The units of date_trunc.
enum DateUnit : int {
  kUnitYear,
  kUnitQuarter,
  kUnitMonth,
  kUnitWeek,
  kUnitDay,
  kUnitDecade,
  kUnitCentury,
  kUnitMillennium,
  kUnitHour,  // this and the smaller units truncate TIMESTAMPs only
  kUnitMinute,
  kUnitSecond,
  kUnitMillisecond,
};

struct Expr {
  ExprKind kind;
  Type type;
  std::vector<ExprPtr> children;
  int index = -1;
  int op = 0;
  Value value;      // Constant (non-string)
  std::string str;  // Constant VARCHAR text, Like pattern
  int64_t months = 0;
  int64_t days = 0;
  int64_t micros = 0;  // DateAdd of a TIMESTAMP: the interval's time part
  int digits = 0;
  bool negated = false;
  SqlText text;             // source text, for error messages and default column names
  SourceLocation location;  // where the text starts (line 0: unknown); not compared
};

// Builders used by the binder, folding and tests.
ExprPtr make_column_ref(int index, Type type, SqlText text = {});
ExprPtr make_constant(Value value, Type type, SqlText text = {});
ExprPtr make_string_constant(std::string s, SqlText text = {});
ExprPtr make_null_constant(Type type);
ExprPtr make_cast(ExprPtr child, Type to);
ExprPtr make_node(ExprKind kind, Type type, std::vector<ExprPtr> children, int op = 0);

// SQL spelling of an operator: "+", "<=", ...
const char* arith_op_symbol(int op);
const char* compare_op_symbol(int op);

// SQL names: "floor", "date_trunc" (lower case, as users call them); "YEAR", "DOW" (upper
// case, as EXTRACT spells them); "month" (date_trunc's units).
const char* scalar_fn_name(int fn);
const char* extract_field_name(int field);
const char* date_unit_name(int unit);

// Readable form of an expression tree, e.g. "(#3 * (1.00 - #6))", for --explain and
// test failure messages.
std::string expr_to_string(const Expr& e);
// The same for one Function node: "date_trunc('month', #2)".
std::string function_to_string(const Expr& e);

// Structural equality (same kinds, types, payloads and children): how the binder matches
// SELECT/HAVING/ORDER BY expressions to GROUP BY keys.
bool expr_equal(const Expr& a, const Expr& b);

// True if the expression references no column, key or aggregate: every row gives it the same
// value (parameters allowed).
bool is_row_invariant(const Expr& e);
// True if the expression references no column, parameter, key or aggregate.
bool is_constant_expr(const Expr& e);
// True if any node is of the given kind.
bool contains_kind(const Expr& e, ExprKind kind);
// Sets reads[i] for each scan column i the expression reads (reads: one entry a scan column).
void mark_scan_columns(const Expr& e, std::vector<bool>& reads);

}  // namespace tally
