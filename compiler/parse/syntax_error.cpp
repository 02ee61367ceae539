#include "compiler/parse/syntax_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace tally {
namespace {

// Line `line` (1-based) of `source`, without its line break.
std::string_view source_line(std::string_view source, int line) {
  size_t begin = 0;
  for (int current = 1; current < line; ++current) {
    size_t newline = source.find('\n', begin);
    if (newline == std::string_view::npos) return {};
    begin = newline + 1;
  }
  size_t end = source.find('\n', begin);
  std::string_view text = source.substr(begin, end == std::string_view::npos ? end : end - begin);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

// Padding that puts a caret under code point `column` (1-based; ANTLR counts code points).
// Tabs are kept so that the caret lines up however the terminal expands them.
std::string caret_padding(std::string_view line, int column) {
  std::string padding;
  int code_points = 0;
  for (char byte : line) {
    if (code_points >= column - 1) break;
    bool continuation = (static_cast<unsigned char>(byte) & 0xC0) == 0x80;
    if (continuation) continue;
    padding += byte == '\t' ? '\t' : ' ';
    ++code_points;
  }
  padding.append(static_cast<size_t>(std::max(0, column - 1 - code_points)), ' ');
  return padding;
}

}  // namespace

Error make_syntax_error(std::string_view source, SourceLocation location,
                        std::string_view problem) {
  std::string_view line = source_line(source, location.line);
  std::string message =
      fmt::format("syntax error at line {}, column {}: {}\n{}\n{}^", location.line, location.column,
                  problem, line, caret_padding(line, location.column));
  return Error(ErrorKind::Syntax, message, location);
}

}  // namespace tally
