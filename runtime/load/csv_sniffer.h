// Guessing a CSV file's delimiter, header and column types, so that FROM 'file.csv' needs
// no hand-written schema. The file is then loaded by copy_into like any COPY.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/load/copy_loader.h"

namespace tally {

// What the query said (read_csv options); unset means guess.
struct CsvHints {
  std::optional<char> delimiter;
  std::optional<bool> header;
};

struct SniffedCsv {
  CopyOptions options;  // delimiter, header, CSV quoting, "" (unquoted) is NULL
  std::vector<ColumnSchema> columns;
};

// Sniffs `text`, the file or its first records. Delimiter: the one of , \t | ; that splits the
// first records into the most fields, equally many in each. Types: from every record, widening
// BIGINT -> DECIMAL(p,s) -> DOUBLE -> VARCHAR (DATE, yyyy-mm-dd, widens to VARCHAR).
// Header: a first record with a field that does not fit its column's type; when every
// column is VARCHAR, a first record of non-empty, distinct fields. Names from the header,
// else column0, column1, ... An empty file or a record with another number of fields
// throws ErrorKind::Data naming `path` and the line.
SniffedCsv sniff_csv(std::string_view text, const std::string& path, const CsvHints& hints);

// Sniffs the file at `path` (its first kMaxLineBytes when longer; a gzip file inflated).
// copy_into with the options returned then loads it, checking every value it stores against
// the guessed types. A file that cannot be read throws ErrorKind::Io; a line over
// kMaxLineBytes, ErrorKind::Data.
SniffedCsv sniff_csv_file(const std::string& path, const CsvHints& hints);

}  // namespace tally
