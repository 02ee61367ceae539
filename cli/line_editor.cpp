#include "cli/line_editor.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
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
  if (!std::getline(std::cin, line)) {
    if (!std::cin.eof()) std::cin.clear();  // a Ctrl-C interrupted the read: go on reading
    return std::nullopt;
  }
  return line;
}

// Without libedit the history is only written: this session's entries appended as text.
void LineEditor::remember(const std::string& entry) { entries_.push_back(entry); }

bool LineEditor::save() {
  if (history_file_.empty() || entries_.empty()) return true;
  std::ofstream out(history_file_, std::ios::app);
  for (const std::string& e : entries_) out << e << "\n";
  return static_cast<bool>(out.flush());
}

bool LineEditor::editing() { return false; }

#endif

}  // namespace tally::cli
