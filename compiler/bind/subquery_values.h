// The results of a SELECT's uncorrelated subqueries: the session runs them before binding
// (runtime/session/query_forms.h) and the binder reads them as constants.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compiler/common/types.h"
#include "compiler/common/value.h"
#include "compiler/parse/ast.h"

namespace tally {

struct SubqueryResult {
  Type type;                       // of the subquery's one column; BOOLEAN for EXISTS
  std::vector<Value> values;       // scalar and EXISTS: at most one; IN: the distinct values
  std::vector<std::string> texts;  // VARCHAR: the values' text, row for row
};

// Keyed by the ScalarSubquery, InSubquery or Exists node of the statement's AST.
using SubqueryValues = std::map<const ast::Expr*, SubqueryResult>;

}  // namespace tally
