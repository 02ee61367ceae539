// Reading the interactive shell's lines: libedit's line editing and history where tally
// was built with it (statically linked, so the binary needs no libedit on the machine),
// else plain lines from standard input.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tally::cli {

class LineEditor {
 public:
  // `history_file`: where earlier sessions' lines are read from and this one's saved to
  // ("" for none).
  explicit LineEditor(std::string history_file);
  ~LineEditor();
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  // The next line without its newline, or nullopt at end of input (Ctrl-D).
  std::optional<std::string> read(const std::string& prompt);
  // Adds an entry (a whole statement, several lines) to the history.
  void remember(const std::string& entry);
  // Writes the history file; false when it could not be written.
  bool save();
  // Whether lines are edited (libedit linked in) or read plainly.
  static bool editing();

 private:
  std::string history_file_;
  std::vector<std::string> entries_;  // without libedit: this session's, for save()
};

// The history file: $TALLY_HISTORY, else ~/.tally_history, else none.
std::string default_history_file();

}  // namespace tally::cli
