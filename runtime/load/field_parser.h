// Converting one text field of a COPY file to a column value.
#pragma once

#include <string>
#include <string_view>

#include "compiler/bind/catalog.h"
#include "runtime/storage/column.h"

namespace tally {

// `s` without the spaces and tabs around it: numbers, dates and booleans may have them.
std::string_view trim_spaces(std::string_view s);

// Parses `text` as a value of `column`'s type and appends it to `builder`. On failure
// appends nothing, sets `error` to what is wrong (without the location: the caller adds
// file, line and column) and returns false. Rules (PostgreSQL's): integers range-checked
// per type; DECIMAL rounded half away from zero to the scale, precision checked; REAL and
// DOUBLE the whole field; DATE yyyy-mm-dd; BOOLEAN t/f/true/false/1/0/yes/no/on/off;
// CHAR(n) loses trailing spaces; a string longer than n characters is an error unless the
// excess is spaces, which are cut. Surrounding spaces are ignored for all but strings.
bool append_field(const ColumnSchema& column, std::string_view text, ColumnBuilder& builder,
                  std::string& error);

}  // namespace tally
