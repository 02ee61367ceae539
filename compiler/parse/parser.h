// SQL text -> AST. The ANTLR-generated parser stays behind this header.
#pragma once

#include <string_view>
#include <vector>

#include "compiler/parse/ast.h"

namespace tally {

// Parses a script of ';'-separated statements. Throws Error(ErrorKind::Syntax) naming the
// line, the column and the offending token, with the source line and a caret under it.
std::vector<ast::Statement> parse_script(std::string_view sql);

// Parses statements of the common shapes and drops them, so that ANTLR's prediction caches
// (shared by every parser of the process) are built before a user's first statement, e.g. on
// a thread while a command loads its data. Returns the statements parsed (0 if they failed).
size_t warm_up_parser();

}  // namespace tally
