// tally's one exception type, public and internal alike: every failure a user can cause
// (bad SQL, a missing table, data that does not fit, no GPU) is a tally::Error carrying a
// kind and, where it comes from query text, the 1-based line and column. The message
// (what()) is the text the tally command prints after "<kind name>: ".
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

namespace tally {

struct SourceLocation {
  int line = 0;    // 1-based
  int column = 0;  // 1-based
};

enum class ErrorKind {
  Syntax,       // the parser rejected the text
  Binder,       // unknown table/column/function, misuse of aggregates
  Type,         // operands or arguments of the wrong type
  Unsupported,  // valid SQL that tally does not run
  Execution,    // division by zero, overflow, bad cast at run time
  Data,         // COPY/INSERT rows that do not fit the table
  Catalog,      // table exists / does not exist
  Io,           // files
  Device,       // no driver, no GPU, CUDA errors, out of device memory
  OutOfMemory,  // host memory: what ran out, and how much was needed where it is known
  Compile,      // NVRTC failures
  Cache,        // kernel cache problems
  Internal,     // a bug in tally
  Cancelled,    // Engine::cancel stopped the statement
};

// "syntax error", "binder error", ...: how the tally command names a kind.
const char* error_kind_name(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message,
        std::optional<SourceLocation> location = std::nullopt)
      : std::runtime_error(message), kind_(kind), location_(location) {}

  ErrorKind kind() const { return kind_; }
  const std::optional<SourceLocation>& location() const { return location_; }

 private:
  ErrorKind kind_;
  std::optional<SourceLocation> location_;
};

}  // namespace tally
