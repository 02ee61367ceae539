// Helpers for tests that run the tally binary as a child process: a temporary directory
// removed at the end of the test, shell quoting, reading a file back, and a run of tally.
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tally::test {

// A fresh directory under the system temp directory, removed when the test ends.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& prefix = "tally_test") {
    namespace fs = std::filesystem;
    std::string pattern = (fs::temp_directory_path() / (prefix + "_XXXXXX")).string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `command` with /bin/sh; the exit code, or -1 when a signal ended it.
inline int run_shell(const std::string& command) {
  int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// What a run of the tally binary gave.
struct TallyRun {
  int status = -1;  // the exit code, -1 when a signal ended it
  std::string out, err;
};

// Runs `tally ARGS...` (quoted here) in `cwd` (default: the test's own) with stdin from
// /dev/null and stdout and stderr captured; `env`: assignments ("A=1 B=2") for it.
inline TallyRun run_tally(const std::vector<std::string>& args, const std::string& env = "",
                          const std::string& cwd = "") {
  ScratchDir io("tally_run_io");
  std::string command = cwd.empty() ? "" : "cd " + shell_quote(cwd) + " && ";
  command += "env " + env + " " + shell_quote(TALLY_BINARY);
  for (const auto& a : args) command += " " + shell_quote(a);
  command += " </dev/null >" + shell_quote((io.path() / "out").string()) + " 2>" +
             shell_quote((io.path() / "err").string());
  TallyRun run;
  run.status = run_shell(command);
  run.out = slurp(io.path() / "out");
  run.err = slurp(io.path() / "err");
  return run;
}

}  // namespace tally::test
