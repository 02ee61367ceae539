#include <fmt/format.h>

#include <iostream>
#include <new>
#include <sstream>

#include "cli/commands.h"
#include "cli/load_lines.h"
#include "compiler/common/error.h"

namespace tally::cli {

namespace {

std::string source_line(const std::string& source, int line) {
  std::istringstream in(source);
  std::string text;
  for (int i = 1; std::getline(in, text); ++i) {
    if (i == line) return text;
  }
  return {};
}

}  // namespace

int report_error(const std::exception& error, const std::string& source) {
  clear_progress_line();
  auto* tally_error = dynamic_cast<const Error*>(&error);
  if (dynamic_cast<const std::bad_alloc*>(&error)) {
    std::cerr << "out of memory: tally ran out of host memory\n";
    return 1;
  }
  if (!tally_error) {
    std::cerr << "error: " << error.what() << "\n";
    return 1;
  }
  std::cerr << error_kind_name(tally_error->kind()) << ": " << error.what() << "\n";
  // A Ctrl-C that cancelled the statement exits as an interrupted command does.
  if (tally_error->kind() == ErrorKind::Cancelled) return 130;
  // The parser's message already shows the line and a caret; other errors with a
  // location get them here, psql style.
  const auto& loc = tally_error->location();
  if (loc && tally_error->kind() != ErrorKind::Syntax && !source.empty()) {
    std::string prefix = fmt::format("LINE {}: ", loc->line);
    std::cerr << prefix << source_line(source, loc->line) << "\n"
              << std::string(prefix.size() + static_cast<size_t>(loc->column - 1), ' ') << "^\n";
  }
  return 1;
}

}  // namespace tally::cli
