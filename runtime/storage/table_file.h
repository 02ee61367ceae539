// A table in a file of its own, as tally's engines hold it: the schema, then each column
// in its encoding (plain, frame of reference + bit-packing, dictionary, validity) with its
// statistics, so that reading a table back parses nothing and re-encodes nothing.
//
// Layout: the magic "TALLYTBL", a format version, the payload's length and its CRC-32
// (zlib), then the payload. A file that is short, has another magic or version, or whose
// payload does not match its checksum is reported as damaged, never read as data.
#pragma once

#include <string>

#include "runtime/storage/table.h"

namespace tally {

// Writes `table` to `path` (created or truncated) and fsyncs it. Throws Error(Io) naming
// the path on any failed write.
void write_table_file(const Table& table, const std::string& path);

// Reads a table written by write_table_file. Throws Error(Io) when the file cannot be read
// and Error(Data) "... is damaged: ..." when its contents fail the checks.
TablePtr read_table_file(const std::string& path);

}  // namespace tally
