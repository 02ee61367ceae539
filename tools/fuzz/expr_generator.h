// Typed random SQL expressions over one fuzz table: columns, edge literals, operators,
// the scalar functions the binder knows (ABS, ROUND, MOD, COALESCE, EXTRACT), CASE, CAST,
// IN, LIKE, BETWEEN, IS NULL, date arithmetic and the aggregate table (with DISTINCT).
// Expressions are mostly well typed, so most statements reach the engines; a few are not
// (a class picked at random), so the binder's error paths are reached too.
#pragma once

#include <string>
#include <vector>

#include "tools/fuzz/rng.h"
#include "tools/fuzz/schema.h"

namespace tally::fuzz {

class ExprGenerator {
 public:
  ExprGenerator(Rng& rng, const FuzzTable* table, int max_depth)
      : rng_(rng), table_(table), max_depth_(max_depth) {}

  // A row-level expression of class `cls` (no aggregates).
  std::string scalar(Cls cls) { return expr(cls, 0, false); }
  // An expression of class `cls` whose columns all sit inside aggregates: valid in the
  // SELECT list and HAVING of any aggregating query.
  std::string aggregated(Cls cls) { return expr(cls, 0, true); }
  // One aggregate call of class `cls` over row-level arguments.
  std::string aggregate(Cls cls, int depth);
  // A column of class `cls` of the table, or a literal when it has none.
  std::string column(Cls cls);
  Cls random_cls();

 private:
  std::string expr(Cls cls, int depth, bool in_aggregate);
  std::string leaf(Cls cls, bool in_aggregate);
  std::string int_expr(int depth, bool agg);
  std::string dec_expr(int depth, bool agg);
  std::string dbl_expr(int depth, bool agg);
  std::string str_expr(int depth, bool agg);
  std::string date_expr(int depth, bool agg);
  std::string bool_expr(int depth, bool agg);
  std::string numeric(int depth, bool agg);          // any of Int, Dec, Dbl
  std::string common(Cls cls, int depth, bool agg);  // CASE, COALESCE, CAST, parentheses
  std::string cast_to(Cls cls, int depth, bool agg);
  std::string type_name(Cls cls);
  Cls castable_to(Cls cls);
  Cls maybe_wrong(Cls cls);  // now and then another class, for the binder's type errors

  Rng& rng_;
  const FuzzTable* table_;  // null: no FROM, literals only
  int max_depth_;
};

}  // namespace tally::fuzz
