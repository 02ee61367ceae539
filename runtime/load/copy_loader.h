// COPY table FROM 'file': PostgreSQL text format, TPC-H .tbl and CSV.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "runtime/load/load_report.h"
#include "runtime/storage/table.h"

namespace tally {

// The longest record COPY and read_csv accept (DuckDB's max_line_size is 2 MB): longer
// ones are an error naming the line, not a buffer that grows until memory runs out.
constexpr size_t kMaxLineBytes = size_t{16} << 20;

struct CopyOptions {
  char delimiter = '\t';
  bool header = false;             // skip the first record
  std::string null_text = "\\N";   // an unquoted field equal to this is NULL
  bool csv = false;                // "quoted" fields with "" for a quote inside
  bool backslash_escapes = false;  // PostgreSQL text format: \t, \n, \\, ... in fields
  std::string statement;           // how errors name the statement; empty: "COPY <table>"
  // Some of a file's fields (the columns a query reads): the field each table column comes
  // from, ascending, and how many fields each record must have. The other fields are
  // counted, not parsed. Empty: one field per table column, in order.
  std::vector<size_t> source_fields = {};
  size_t file_fields = 0;
};

// Options of a COPY statement (keys as written, any case: FORMAT csv|text, DELIMITER,
// HEADER, NULL), with defaults from the file name: FORMAT csv or a .csv file -> ',' and
// CSV quoting; a .tbl file -> '|'; otherwise PostgreSQL text format (tab, backslash
// escapes). NULL is "" for CSV and .tbl, "\N" for text. A .gz after the name is looked
// through (sales.csv.gz is CSV). Unknown options and bad values throw
// ErrorKind::Unsupported.
CopyOptions copy_options_from(const std::map<std::string, std::string>& options,
                              const std::string& path);

// A new table: the rows of `table` followed by the rows of the file. The caller swaps it
// in only on success, so a failed COPY leaves nothing half-loaded. A delimiter at the end
// of a line is allowed (.tbl files have one). Bad data throws ErrorKind::Data naming the
// file, line, column and value; a file that cannot be read throws ErrorKind::Io. A gzip
// file (known by its magic bytes) is inflated as it is read, never held whole; damaged or
// cut gzip data throws ErrorKind::Data naming the file. `control` may stop the load
// (ErrorKind::Cancelled) and is told its progress; `stats`, when given, gets its totals.
TablePtr copy_into(const Table& table, const std::string& path, const CopyOptions& options,
                   const LoadControl& control = {}, LoadStats* stats = nullptr);

}  // namespace tally
