// SQL names of the scalar functions, EXTRACT fields and date units, for readable IR
// (--explain, test failures) and the binder's look-up.
#include <fmt/format.h>

#include "compiler/ir/expr.h"

namespace tally {

namespace {

template <size_t N>
const char* name_at(const char* const (&names)[N], int i) {
  return i >= 0 && static_cast<size_t>(i) < N ? names[i] : "?";
}

}  // namespace

const char* scalar_fn_name(int fn) {
  // In ScalarFn order.
  static const char* const kNames[] = {
      "floor",   "ceil",        "trunc", "sqrt",     "power",      "ln",      "log10",
      "log",     "exp",         "sign",  "greatest", "least",      "upper",   "lower",
      "length",  "substring",   "||",    "concat",   "trim",       "ltrim",   "rtrim",
      "replace", "starts_with", "left",  "right",    "date_trunc", "strftime"};
  return name_at(kNames, fn);
}

const char* extract_field_name(int field) {
  // In ExtractField order.
  static const char* const kNames[] = {"YEAR",    "MONTH",       "DAY",        "QUARTER", "WEEK",
                                       "DOW",     "ISODOW",      "DOY",        "ISOYEAR", "DECADE",
                                       "CENTURY", "MILLENNIUM",  "EPOCH",      "HOUR",    "MINUTE",
                                       "SECOND",  "MILLISECOND", "MICROSECOND"};
  return name_at(kNames, field);
}

const char* date_unit_name(int unit) {
  // In DateUnit order.
  static const char* const kNames[] = {"year", "quarter", "month",   "week",
                                       "day",  "decade",  "century", "millennium",
                                       "hour", "minute",  "second",  "millisecond"};
  return name_at(kNames, unit);
}

std::string function_to_string(const Expr& e) {
  std::string out = fmt::format("{}(", scalar_fn_name(e.op));
  if (e.op == kDateTrunc) out += fmt::format("'{}', ", date_unit_name(e.digits));
  for (size_t i = 0; i < e.children.size(); ++i) {
    if (i > 0) out += ", ";
    out += expr_to_string(*e.children[i]);
  }
  if (e.op == kTrunc) out += fmt::format(", {}", e.digits);
  return out + ")";
}

}  // namespace tally
