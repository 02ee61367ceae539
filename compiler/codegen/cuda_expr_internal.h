// Pieces the expression emitter's source files share: literals and checks in CUDA text.
#pragma once

#include <fmt/format.h>

#include <bit>
#include <string>
#include <utility>

#include "compiler/common/error.h"
#include "compiler/common/types.h"
#include "compiler/common/value.h"

namespace tally::cuda_text {

inline std::string i64_literal(int64_t v) {
  if (v == INT64_MIN) return "(i64)(-9223372036854775807ll - 1)";
  return fmt::format("(i64){}ll", v);
}

inline std::string i128_literal(int128 v) {
  if (v >= INT64_MIN && v <= INT64_MAX)
    return fmt::format("(i128){}", i64_literal(static_cast<int64_t>(v)));
  auto u = static_cast<unsigned __int128>(v);
  return fmt::format("i128_from_words({}ull, {}ull)", static_cast<uint64_t>(u),
                     static_cast<uint64_t>(u >> 64));
}

inline std::string f64_literal(double v) {
  return fmt::format("__longlong_as_double({}ll)", std::bit_cast<int64_t>(v));
}

// The range of an integer-like SQL type, for check_int.
inline std::pair<std::string, std::string> int_range(const Type& t) {
  switch (t.id) {
    case TypeId::SmallInt:
      return {"-32768ll", "32767ll"};
    case TypeId::Integer:
    case TypeId::Date:
      return {"(i64)kI32Min", "(i64)kI32Max"};
    default:
      return {"kI64Min", "kI64Max"};
  }
}

inline const char* compare_op(int op) {
  switch (op) {
    case kEq:
      return "==";
    case kNe:
      return "!=";
    case kLt:
      return "<";
    case kLe:
      return "<=";
    case kGt:
      return ">";
    default:
      return ">=";
  }
}

// C expression comparing two operands of one type class: negative, zero or positive.
inline std::string compare_expr(const Type& ta, const std::string& a, const Type& tb,
                                const std::string& b) {
  if (ta.is_decimal()) return fmt::format("cmp_decimal({}, {}, {}, {})", a, ta.scale, b, tb.scale);
  if (ta.is_float()) return fmt::format("cmp_f64({}, {})", a, b);
  return fmt::format("(({0}) < ({1}) ? -1 : (({0}) > ({1}) ? 1 : 0))", a, b);
}

// What a temporary holding a ScalarFn's value is called ("floored", "root").
const char* function_value_hint(int fn);

}  // namespace tally::cuda_text
