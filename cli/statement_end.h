// Where an interactive statement ends: the shell keeps reading lines until the text so far
// ends with a semicolon that is SQL, not part of a string, a quoted name or a comment.
#pragma once

#include <string_view>

namespace tally::cli {

// Whether `text` ends (after spaces and comments) with a `;` outside quotes and comments.
bool ends_statement(std::string_view text);

}  // namespace tally::cli
