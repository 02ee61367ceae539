// The scalar function table the binder reads: names, argument counts and which binding rule
// each follows (compiler/bind/scalar_functions.cpp). ABS, ROUND, MOD, COALESCE and EXTRACT
// keep their own rules in functions.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/expr.h"
#include "compiler/parse/ast.h"

namespace tally {

enum class ScalarRule {
  Rounding,  // FLOOR CEIL TRUNC: the argument's kind, DECIMAL at scale 0
  Double,    // SQRT LN LOG EXP POWER: DOUBLE arguments and result
  Sign,
  Extremum,  // GREATEST LEAST: the arguments' common type
  NullIf,
  String,  // the string functions of string_functions.cpp
  Concat,
  DatePart,
  DateTrunc,
  Strftime,
};

struct ScalarEntry {
  const char* name;  // lower case, as users call it
  int fn;            // ScalarFn (unused for NULLIF and date_part)
  ScalarRule rule;
  size_t min_args, max_args;
};

// nullptr when `lower_name` names no function of the table.
const ScalarEntry* find_scalar_function(std::string_view lower_name);
// Every name of the table (for "function ... does not exist" suggestions).
std::vector<std::string> scalar_function_names();

// An EXTRACT/date_part field by its upper-case name ("YEAR", "DOW", also plurals such as
// "YEARS" and aliases "DAYOFWEEK"); nullopt when unknown.
std::optional<int> extract_field_of(std::string_view upper_name);

// The time-of-day fields and units (hour and smaller) need a TIMESTAMP (PostgreSQL: "unit
// "hour" not supported for type date"): throws at `site` when `arg` is a DATE.
void fail_time_part_of_date(const std::string& part, const ast::Expr& site, const Expr& arg,
                            bool time_part);

// A TIME has only the time-of-day fields and EPOCH (PostgreSQL: "unit "year" not supported
// for type time"), an INTERVAL no week or weekday: throws at `site` naming the type.
void fail_date_part_of_time(const std::string& part, const ast::Expr& site, const Expr& arg,
                            int field);

// ASCII case mapping of names, as the parser does it (defined in compiler/parse/transformer.cpp,
// whose header brings ANTLR with it).
std::string lower_ascii(std::string text);
std::string upper_ascii(std::string text);

// Throws the binder's "function "f" expects 2 arguments, got 3".
void expect_arguments(const ast::Expr& call, size_t min, size_t max);

}  // namespace tally
