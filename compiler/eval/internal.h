// Pieces of the expression evaluator shared between its source files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/common/error.h"
#include "compiler/eval/evaluator.h"

namespace tally::detail {

[[noreturn]] inline void execution_error(const std::string& message) {
  throw Error(ErrorKind::Execution, message);
}

// Checks an integer result against the range of its SQL type.
int64_t check_integer_range(int128 v, const Type& type);
// The DECIMAL, or the "numeric overflow" error when it is missing or beyond 38 digits.
int128 decimal_or_overflow(std::optional<int128> v);

// -v, or "hugeint out of range" for -2^127.
int128 negate_hugeint(int128 v);

Value eval_arith(const Expr& e, const Value& a, const Value& b);
Value eval_compare(const Expr& e, const Value& a, const Value& b, const StringHeap* strings);
Value eval_round(const Expr& e, const Value& v);
Value eval_abs(const Expr& e, const Value& v);
Value eval_extract(const Expr& e, const Value& v);

// interval_arith.cpp: Arith nodes with an INTERVAL operand or result, -interval, and
// EXTRACT(field FROM interval) of a value that is not NULL.
Value eval_interval_arith(const Expr& e, const Value& a, const Value& b);
Value eval_interval_negate(const Value& v);
Value interval_field(const Value& v, int field);

// ExprKind::Function over its evaluated arguments: math_functions.cpp (numbers, dates),
// string_functions.cpp (strings).
Value eval_numeric_function(const Expr& e, const std::vector<Value>& args,
                            const StringHeap* strings);
Value eval_string_function(const Expr& e, const std::vector<Value>& args, StringHeap* strings);
// ILIKE's case folding and LIKE: ASCII letters only.
bool ilike_match(std::string_view text, std::string_view pattern);

}  // namespace tally::detail
