// Writes a table as delimited text (TPC-H .tbl style), readable by COPY.
#pragma once

#include <string>

#include "runtime/storage/table.h"

namespace tally {

// One row per line; NULL is an empty field; DECIMAL with its scale; DATE as yyyy-mm-dd;
// REAL/DOUBLE in the shortest form that reads back to the same value; BOOLEAN as t/f.
// There is no quoting: a string containing the delimiter or a line break is an error
// (ErrorKind::Unsupported), and an empty string reads back as NULL. I/O failures throw
// ErrorKind::Io.
void write_tbl(const Table& table, const std::string& path, char delimiter = '|',
               bool trailing_delimiter = true);

}  // namespace tally
