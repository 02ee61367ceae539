// Literal text -> typed Constant nodes, with the literal typing rules:
//   integer -> INTEGER if it fits 32 bits, else BIGINT, else DECIMAL(n,0) up to 38 digits;
//   decimal "12.50" -> DECIMAL(4,2); float (with exponent) -> DOUBLE; DATE 'x' -> DATE.
// String literals are VARCHAR, but one that meets a DATE, a number or a BOOLEAN takes that
// type at bind time (PostgreSQL's 'unknown' literals): string_literal_as.
#pragma once

#include <string_view>

#include "compiler/common/interval.h"
#include "compiler/ir/expr.h"

namespace tally {

ExprPtr integer_literal(std::string_view digits, SourceLocation location);
ExprPtr decimal_literal(std::string_view text, SourceLocation location);
ExprPtr float_literal(std::string_view text, SourceLocation location);
ExprPtr date_literal(std::string_view text, SourceLocation location);
ExprPtr timestamp_literal(std::string_view text, SourceLocation location);
ExprPtr boolean_literal(bool value, SourceLocation location);
// INTERVAL '1 day 02:00:00': Error(Execution) "interval out of range" past 32-bit months/days.
ExprPtr interval_literal(const IntervalParts& parts, std::string_view text,
                         SourceLocation location);
ExprPtr string_literal(std::string_view text, SourceLocation location);

// The string literal read as a value of `target`'s kind: a DATE, a BOOLEAN, or for numbers
// the numeric literal its text spells (so '12.555' stays exact next to a DECIMAL(15,2)).
// VARCHAR targets keep the string. Throws Error(Type) naming the text when it does not parse.
ExprPtr string_literal_as(std::string_view text, const Type& target, SourceLocation location);

// CAST('text' AS target), done at bind time with the engines' cast rules (rounding to the
// target scale, range checks); VARCHAR(n) targets truncate as an explicit cast does.
ExprPtr cast_string_literal(std::string_view text, const Type& target, SourceLocation location);

}  // namespace tally
