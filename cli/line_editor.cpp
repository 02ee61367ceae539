#include "cli/line_editor.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

#ifdef TALLY_HAVE_EDITLINE
#include <editline/readline.h>
#endif

namespace tally::cli {

std::string default_history_file() {
  if (const char* path = std::getenv("TALLY_HISTORY")) return path;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.tally_history";
  return "";
}

#ifdef TALLY_HAVE_EDITLINE

LineEditor::LineEditor(std::string history_file) : history_file_(std::move(history_file)) {
  using_history();
  if (!history_file_.empty()) read_history(history_file_.c_str());
}

LineEditor::~LineEditor() = default;

std::optional<std::string> LineEditor::read(const std::string& prompt) {
  char* line = readline(prompt.c_str());
  if (!line) return std::nullopt;
  std::string text(line);
  std::free(line);
  return text;
}

void LineEditor::remember(const std::string& entry) { add_history(entry.c_str()); }

bool LineEditor::save() {
  return history_file_.empty() || write_history(history_file_.c_str()) == 0;
}

bool LineEditor::editing() { return true; }

#else

LineEditor::LineEditor(std::string history_file) : history_file_(std::move(history_file)) {}

LineEditor::~LineEditor() = default;

std::optional<std::string> LineEditor::read(const std::string& prompt) {
  std::cerr << prompt << std::flush;  // stdout carries results only
  std::string line;
  if (!std::getline(std::cin, line)) return std::nullopt;
  return line;
}

void LineEditor::remember(const std::string&) {}

bool LineEditor::save() { return true; }

bool LineEditor::editing() { return false; }

#endif

}  // namespace tally::cli
