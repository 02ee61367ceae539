// Computed strings on the GPU. Strings reach the device only as dictionary codes, so a
// string-valued expression runs there as an id into a query-local *string domain*: every
// string the expression can produce, sorted as the CPU engine sorts strings, so that ids
// group, deduplicate (DISTINCT) and order (MIN/MAX) exactly as the strings do.
//
// The expression is split into leaves, each computed on the host: a subexpression reading
// at most one column, a VARCHAR one (evaluated once per dictionary code, plus the NULL
// code), or none at all (a constant or parameter, evaluated once). The device indexes a
// leaf's table of ids by code; CASE and COALESCE above the leaves pick ids on the device,
// with conditions over any column. A domain's size is bounded before any string is seen
// (the leaves' dictionary sizes), which makes it a bounded group-key digit.
//
// A non-string expression over one such string (a comparison, LIKE, IN, a CAST) is, like
// a predicate on a dictionary column, a table computed on the host, indexed by domain id.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/plan/gpu_plan.h"

namespace tally {

// string_leaf_column's answer for a string expression that is not one leaf.
constexpr int kNotStringLeaf = -2;

// For a VARCHAR expression below the aggregation: the dictionary column whose codes index
// its per-code values, -1 when it reads no column (one value per execution), or
// kNotStringLeaf (it reads a non-string column, or several columns).
int string_leaf_column(const Expr& e, const BoundSelect& query);

struct StringDomainShape {
  std::vector<ExprPtr> leaves;  // distinct (expr_equal), in the order CASE/COALESCE meet them
  uint64_t bound = 0;           // every id is below this
  bool nullable = false;        // false only where the expression can never be NULL
};

// Splits a VARCHAR expression into leaves. Throws Error(Unsupported) naming the part whose
// strings have no bounded domain (CAST(number AS VARCHAR), say).
StringDomainShape string_domain_shape(const Expr& e, const BoundSelect& query,
                                      const std::vector<ColumnStats>& stats);

// How a non-string expression reads strings directly (through its VARCHAR children).
struct StringRead {
  enum class Kind {
    None,       // no VARCHAR child (or IS NULL, which the device answers from the id)
    Constant,   // VARCHAR children that read no column: one value per execution
    PerString,  // one VARCHAR expression, `source`, read beside constants and parameters
    // A comparison of two different VARCHAR expressions that read columns (`s = u`, say):
    // both become ids of one domain holding the strings of each (joint_string_domain), and
    // the ids compare as the strings do.
    TwoStrings,
  } kind = Kind::None;
  const Expr* source = nullptr;
};

// Throws Error(Unsupported) when `e` reads two different string expressions other than as
// the two sides of a comparison, or a column beside its strings.
StringRead string_read(const Expr& e);

// The VARCHAR expression whose domain holds every string either side of a TwoStrings
// comparison can produce: COALESCE of the two sides (its leaves are theirs).
ExprPtr joint_string_domain(const Expr& comparison);

// `e` with every subtree equal to `target` replaced by `by`.
ExprPtr replace_subexpression(const ExprPtr& e, const Expr& target, const ExprPtr& by);

}  // namespace tally
