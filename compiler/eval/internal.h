// Pieces of the expression evaluator shared between its source files.
#pragma once

#include <string>

#include "compiler/common/error.h"
#include "compiler/eval/evaluator.h"

namespace tally::detail {

[[noreturn]] inline void execution_error(const std::string& message) {
  throw Error(ErrorKind::Execution, message);
}

// Checks an integer result against the range of its SQL type.
int64_t check_integer_range(int128 v, const Type& type);

Value eval_arith(const Expr& e, const Value& a, const Value& b);
Value eval_compare(const Expr& e, const Value& a, const Value& b, const StringHeap* strings);
Value eval_round(const Expr& e, const Value& v);
Value eval_abs(const Expr& e, const Value& v);

}  // namespace tally::detail
