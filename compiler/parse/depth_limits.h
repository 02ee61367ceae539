// Limits on how deep an expression may be, so that no recursive pass (ANTLR's parser, the
// transformer, binder, planner, code generator, CPU evaluator) can overflow the stack:
// hostile or generated SQL gets an error with a line and column instead of a crash.
#pragma once

#include "compiler/parse/ast.h"

namespace tally {

// Nesting that makes ANTLR's generated parser recurse: parentheses, function calls, CASE,
// CAST(... AS ...), and chains of unary minus or NOT. A level of parentheses costs the
// parser about 2 KiB of stack, so 1,000 levels fit in 2 MiB; no hand-written SQL nests
// this deep.
inline constexpr int kMaxNestingDepth = 1000;

// The deepest path through an expression tree, every node counted. A chain such as
// `a + b + c` is a left-deep tree as deep as it is long, and later passes recurse over it
// at up to about 800 bytes a level (the code generator), so 4,000 levels stay within half
// of the default 8 MiB stack of a main or worker thread.
inline constexpr int kMaxExpressionDepth = 4000;

// The depth of the tree under `e`, measured without recursion. Nodes measured before keep
// their depth (ast::Expr::depth), so measuring each nested expression as it is built costs
// time linear in the whole tree.
int measure_depth(ast::Expr& e);

}  // namespace tally
