#include "cli/statement_end.h"

#include <cctype>

namespace tally::cli {

bool ends_statement(std::string_view text) {
  bool last_is_semicolon = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      // A quote doubled inside ('it''s') continues the same string.
      size_t j = i + 1;
      for (; j < text.size(); ++j) {
        if (text[j] != c) continue;
        if (j + 1 < text.size() && text[j + 1] == c) {
          ++j;
          continue;
        }
        break;
      }
      if (j >= text.size()) return false;  // still inside the quotes
      i = j;
      last_is_semicolon = false;
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const size_t close = text.find("*/", i + 2);
      if (close == std::string_view::npos) return false;
      i = close + 1;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      last_is_semicolon = c == ';';
    }
  }
  return last_is_semicolon;
}

}  // namespace tally::cli
