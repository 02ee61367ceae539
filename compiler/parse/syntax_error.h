// Syntax error messages shared by the ANTLR error listener and the AST transformer:
// "syntax error at line L, column C: <problem>", then the source line and a caret under
// the column.
#pragma once

#include <string_view>

#include "compiler/common/error.h"

namespace tally {

Error make_syntax_error(std::string_view source, SourceLocation location, std::string_view problem);

}  // namespace tally
