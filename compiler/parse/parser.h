// SQL text -> AST. The ANTLR-generated parser stays behind this header.
#pragma once

#include <string_view>
#include <vector>

#include "compiler/parse/ast.h"

namespace tally {

// Parses a script of ';'-separated statements. Throws Error(ErrorKind::Syntax) naming the
// line, the column and the offending token, with the source line and a caret under it.
std::vector<ast::Statement> parse_script(std::string_view sql);

}  // namespace tally
