// Loads under control (runtime/load/load_report.h): a cancel stops COPY and read_csv within
// a few MB and leaves the table as it was; a script stops before its next statement.
#include <doctest/doctest.h>

#include <atomic>
#include <string>

#include "compiler/common/error.h"
#include "runtime/session/database.h"
#include "tests/unit/support/shell.h"
#include "tools/data/paper_tables.h"
#include "tools/data/tbl_writer.h"

namespace tally {
namespace {

// A .tbl file of generated atable rows (about 40 bytes a row) in a scratch folder.
struct AtableFile {
  explicit AtableFile(size_t rows, const std::string& name = "atable.tbl")
      : path((dir.path() / name).string()) {
    write_tbl(*generate_atable(rows, 1u << 20, 0, 7), path);
  }
  test::ScratchDir dir{"tally_load_control"};
  std::string path;
};

constexpr const char* kCreate =
    "CREATE TABLE atable (col1 BIGINT, col2 INTEGER, col3 DOUBLE, col4 DECIMAL(12,2))";

// Runs `sql` and returns the kind of the Error it throws (Internal when none).
ErrorKind error_kind_of(Database& db, const std::string& sql, const ExecOptions& options) {
  try {
    db.execute_script(sql, options, [](const StatementOutcome&) {});
  } catch (const Error& e) {
    return e.kind();
  }
  return ErrorKind::Internal;
}

int64_t count_rows(Database& db, const std::string& table) {
  int64_t count = -1;
  db.execute_script("SELECT COUNT(*) FROM " + table, ExecOptions{},
                    [&](const StatementOutcome& o) { count = o.result->rows.at(0).at(0).i; });
  return count;
}

TEST_CASE("load control: a cancel stops COPY after a few MB and the table keeps its rows") {
  AtableFile file(400'000);  // about 16 MB: several meter steps
  Database db;
  db.execute_script(std::string(kCreate) + "; INSERT INTO atable VALUES (1, 2, 3, 4)",
                    ExecOptions{}, [](const StatementOutcome&) {});
  std::atomic<int> asked{0};
  ExecOptions options;
  options.cancelled = [&] { return ++asked > 3; };
  CHECK(error_kind_of(db, "COPY atable FROM '" + file.path + "'", options) == ErrorKind::Cancelled);
  CHECK(asked.load() < 40);  // stopped early, not at the end of the file
  CHECK(count_rows(db, "atable") == 1);
  // Not cancelled, the same COPY loads every row.
  db.execute_script("COPY atable FROM '" + file.path + "'", ExecOptions{},
                    [](const StatementOutcome&) {});
  CHECK(count_rows(db, "atable") == 400'001);
}

TEST_CASE("load control: a cancel stops a file in FROM and a script before its next statement") {
  AtableFile file(400'000, "atable.csv");
  Database db;
  ExecOptions options;
  std::atomic<int> asked{0};
  options.cancelled = [&] { return ++asked > 3; };
  CHECK(error_kind_of(db, "SELECT COUNT(*) FROM read_csv('" + file.path + "', delim => '|')",
                      options) == ErrorKind::Cancelled);
  // A cancel that is already set stops the script before its first statement: nothing ran.
  options.cancelled = [] { return true; };
  CHECK(error_kind_of(db, kCreate, options) == ErrorKind::Cancelled);
  CHECK(db.table_names().empty());
}

}  // namespace
}  // namespace tally
