// Results as delimited text: the CSV the command prints (--format csv) and the files
// COPY ... TO writes (CSV, or PostgreSQL's text format), so that both quote alike.
#pragma once

#include <string>

#include "runtime/result/result.h"

namespace tally {

struct DelimitedFormat {
  enum class Escapes {
    Csv,        // RFC 4180: a field with the delimiter, a quote or a line break is quoted
    Backslash,  // PostgreSQL text format: \\ \n \r \t and \<delimiter>
    None,       // as is (TPC-H .tbl)
  };
  char delimiter = ',';
  Escapes escapes = Escapes::Csv;
  std::string null_text;  // how NULL is written
  // CSV: quote a value that reads as NULL (an empty string when NULL is ''), as PostgreSQL
  // and DuckDB's COPY TO do, so that it reads back as itself.
  bool quote_null_lookalike = false;
};

// The column names, one line.
std::string delimited_header(const Result& result, const DelimitedFormat& format);
// Rows [begin, end), a line each.
std::string delimited_rows(const Result& result, size_t begin, size_t end,
                           const DelimitedFormat& format);

}  // namespace tally
