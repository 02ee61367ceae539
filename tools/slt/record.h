// A sqllogictest file as records: the format DuckDB and SQLite keep their SQL tests in.
// A record is a statement that must succeed, a statement that must fail, or a query with
// its expected rows.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tally::slt {

enum class RecordKind {
  StatementOk,     // the SQL must run without error
  StatementError,  // the SQL must fail; expected_error, if given, starts the message
  Query,           // the SQL's last result must equal `expected`
  Halt,            // stop running the file here
};

// How a query's rows are ordered before they are compared.
enum class SortMode {
  NoSort,     // in the order the engine returned them
  RowSort,    // rows sorted as strings
  ValueSort,  // all values sorted, row structure ignored
};

// `skipif ENGINE` (only = false) or `onlyif ENGINE` (only = true) before a record.
struct Condition {
  bool only = false;
  std::string engine;
};

struct Record {
  RecordKind kind = RecordKind::StatementOk;
  int line = 0;  // 1-based line of the record's first line (statement/query/halt)
  std::vector<Condition> conditions;
  std::string sql;
  std::optional<std::string> expected_error;  // StatementError: start of the message
  std::string types;                          // Query: one letter per column (I, T, R)
  SortMode sort = SortMode::NoSort;
  std::vector<std::string> expected;  // Query: the lines after ----
};

struct TestFile {
  std::string path;
  std::vector<Record> records;
};

// Whether a record runs on `engine` ("cpu" or "gpu") given its skipif/onlyif lines.
bool applies_to(const Record& record, const std::string& engine);

}  // namespace tally::slt
