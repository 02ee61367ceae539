#include "tools/slt/runner.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "compiler/common/error.h"
#include "tools/slt/compare.h"
#include "tools/slt/parse.h"

namespace tally::slt {

namespace {

std::string indented(const std::string& text, const std::string& indent) {
  std::string out = indent;
  for (char ch : text) {
    out += ch;
    if (ch == '\n') out += indent;
  }
  return out;
}

std::string indented_lines(const std::vector<std::string>& lines) {
  if (lines.empty()) return "    (no rows)\n";
  std::string out;
  for (const auto& line : lines) out += "    " + line + "\n";
  return out;
}

// The last result the SQL produced, or nullopt when no statement returned rows.
std::optional<Result> run_sql(Database& db, const std::string& sql, const ExecOptions& exec) {
  std::optional<Result> last;
  db.execute_script(sql, exec, [&](const StatementOutcome& outcome) {
    if (outcome.result) last = outcome.result;
  });
  return last;
}

// Why a record failed: a one-line summary, then details shown after the SQL.
struct Failure {
  std::string summary;
  std::string details;
};

// Each check returns the failure, or nullopt when the record passed.
using Verdict = std::optional<Failure>;

Verdict check_statement_ok(Database& db, const Record& record, const ExecOptions& exec) {
  try {
    run_sql(db, record.sql, exec);
  } catch (const std::exception& e) {
    return Failure{"statement failed", fmt::format("  error:\n{}\n", indented(e.what(), "    "))};
  }
  return std::nullopt;
}

Verdict check_statement_error(Database& db, const Record& record, const ExecOptions& exec) {
  try {
    run_sql(db, record.sql, exec);
  } catch (const std::exception& e) {
    if (error_matches(record.expected_error, e.what())) return std::nullopt;
    return Failure{
        "wrong error message",
        fmt::format("  expected an error starting with:\n{}\n  got:\n{}\n",
                    indented(*record.expected_error, "    "), indented(e.what(), "    "))};
  }
  return Failure{"statement succeeded, but an error was expected", ""};
}

Verdict check_query(Database& db, const Record& record, const ExecOptions& exec) {
  std::optional<Result> result;
  try {
    result = run_sql(db, record.sql, exec);
  } catch (const std::exception& e) {
    return Failure{"query failed", fmt::format("  error:\n{}\n", indented(e.what(), "    "))};
  }
  if (!result) return Failure{"the SQL returned no result to compare", ""};
  std::optional<std::string> difference = compare_query(record, *result);
  if (!difference) return std::nullopt;
  return Failure{*difference,
                 fmt::format("  expected:\n{}  actual:\n{}", indented_lines(record.expected),
                             indented_lines(format_rows(result_values(*result))))};
}

Verdict check_record(Database& db, const Record& record, const ExecOptions& exec) {
  switch (record.kind) {
    case RecordKind::StatementOk:
      return check_statement_ok(db, record, exec);
    case RecordKind::StatementError:
      return check_statement_error(db, record, exec);
    case RecordKind::Query:
      return check_query(db, record, exec);
    case RecordKind::Halt:
      break;
  }
  return std::nullopt;
}

// DuckDB's __TEST_DIR__: a folder of the file's own for the files its statements write
// (COPY ... TO), made when first named and removed with everything in it at the end.
class TestDir {
 public:
  TestDir() = default;
  TestDir(const TestDir&) = delete;
  TestDir& operator=(const TestDir&) = delete;
  ~TestDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }

  Record substituted(const Record& record) {
    static constexpr std::string_view kName = "__TEST_DIR__";
    Record copy = record;
    for (size_t at = copy.sql.find(kName); at != std::string::npos; at = copy.sql.find(kName, at)) {
      copy.sql.replace(at, kName.size(), path());
      at += path().size();
    }
    return copy;
  }

 private:
  const std::string& path() {
    if (path_.empty()) {
      std::string pattern = (std::filesystem::temp_directory_path() / "tally-slt-XXXXXX").string();
      if (mkdtemp(pattern.data()) == nullptr) {
        throw Error(ErrorKind::Io, fmt::format("cannot make a folder for __TEST_DIR__ ({})",
                                               std::strerror(errno)));
      }
      path_ = pattern;
    }
    return path_;
  }

  std::string path_;
};

}  // namespace

FileReport run_test_file(const TestFile& file, const RunOptions& options) {
  FileReport report{file.path, 0, 0, 0, {}};
  TestDir test_dir;
  Database db;
  ExecOptions exec;
  exec.device = options.device;
  for (const Record& record : file.records) {
    if (!applies_to(record, options.engine)) {
      if (record.kind != RecordKind::Halt) ++report.skipped;
      continue;
    }
    if (record.kind == RecordKind::Halt) break;
    Verdict failure = check_record(db, test_dir.substituted(record), exec);
    if (!failure) {
      ++report.passed;
      continue;
    }
    ++report.failed;
    report.failures.push_back(fmt::format("{}:{}: {}\n  SQL:\n{}\n{}", file.path, record.line,
                                          failure->summary, indented(record.sql, "    "),
                                          failure->details));
  }
  return report;
}

FileReport run_test_path(const std::string& path, const RunOptions& options) {
  try {
    return run_test_file(load_test_file(path), options);
  } catch (const std::exception& e) {
    return FileReport{path, 0, 1, 0, {e.what()}};
  }
}

std::vector<std::string> collect_test_files(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& path : paths) {
    if (!fs::exists(path)) throw Error(ErrorKind::Io, fmt::format("{} does not exist", path));
    if (!fs::is_directory(path)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& entry : fs::recursive_directory_iterator(path)) {
      if (entry.is_regular_file() && entry.path().extension() == ".test") {
        found.push_back(entry.path().string());
      }
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

std::string summary_line(int passed, int failed, int skipped) {
  std::string line = fmt::format("{} passed, {} failed", passed, failed);
  if (skipped > 0) line += fmt::format(", {} skipped", skipped);
  return line;
}

}  // namespace tally::slt
