// Reads a file for COPY in blocks that end on record boundaries, so that each block can be
// split among threads and parsed on its own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/load/delimited_records.h"
#include "runtime/load/file_source.h"
#include "runtime/load/raw_buffer.h"

namespace tally {

class BlockReader {
 public:
  // `statement` names the statement in errors. Throws Error(Io) when the file cannot be
  // opened.
  BlockReader(const std::string& statement, const std::string& path);

  // The next run of whole records, empty at the end of the file (or at a record longer than
  // kMaxLineBytes: see too_long()). Throws FileSource's errors.
  std::string_view next(const RecordFormat& format);
  // The last next() stopped at a record longer than kMaxLineBytes.
  bool too_long() const { return too_long_; }

  const FileSource& source() const { return source_; }
  // Text bytes read so far (after decompression), a partial record included.
  uint64_t text_bytes_read() const { return text_read_; }

 private:
  void fill();

  FileSource source_;
  RawBuffer buffer_;
  size_t filled_ = 0;
  size_t consumed_ = 0;
  uint64_t text_read_ = 0;
  bool eof_ = false;
  bool too_long_ = false;
};

}  // namespace tally
