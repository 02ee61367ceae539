// UNION [ALL], INTERSECT [ALL] and EXCEPT [ALL] of two query results. Rows compare equal
// when every column does, NULLs equal to NULLs (SQL's "not distinct"); the result's
// columns take the left side's names and the common type of the two sides' columns.
#pragma once

#include "compiler/parse/ast.h"
#include "runtime/result/result.h"

namespace tally {

// Throws Error(Binder) when the column counts differ and Error(Type) when two columns have
// no common type, with PostgreSQL's wording, at `operation.location`.
Result combine_results(const ast::SetOperation& operation, const Result& left, const Result& right);

}  // namespace tally
