// Splitting delimited text into records and fields, for COPY: PostgreSQL text format
// (backslash escapes), TPC-H .tbl (no escapes) and CSV (double quotes, "" inside quotes).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tally {

struct RecordFormat {
  char delimiter = '\t';
  bool csv = false;                // "quoted" fields, "" for a quote inside them
  bool backslash_escapes = false;  // PostgreSQL text format: \t, \n, \\, ...
};

// One field of a record as it stands in the text: `raw` is between the quotes for a quoted
// CSV field, and still holds escapes (see field_text) when `escaped` is set.
struct RawField {
  std::string_view raw;
  bool quoted = false;
  bool escaped = false;
};

// The field's value with quotes and escapes resolved; uses `scratch` only when needed.
std::string_view field_text(const RawField& field, const RecordFormat& format,
                            std::string& scratch);

// Reads records one by one from [begin, end). Records end at '\n' (a '\r' before it is
// dropped) or at the end of the text.
class RecordReader {
 public:
  RecordReader(const RecordFormat& format, const char* begin, const char* end)
      : format_(format), pos_(begin), end_(end) {}

  // Reads the next record into fields(); false at the end of the text. Throws nothing:
  // malformed quoting sets `error` and returns true with the fields read so far.
  bool next(std::string& error);
  std::span<RawField> fields() { return {fields_.data(), count_}; }
  // Line breaks consumed so far (the record last returned started after
  // record_start_lines() of them).
  size_t lines() const { return lines_; }
  size_t record_start_lines() const { return record_start_lines_; }
  const char* position() const { return pos_; }

 private:
  void csv_quoted_field(std::string& error);
  void plain_field();
  void add(std::string_view raw, bool quoted, bool escaped) {
    if (count_ == fields_.size()) fields_.resize(count_ * 2 + 8);
    fields_[count_++] = {raw, quoted, escaped};
  }

  RecordFormat format_;
  const char* pos_;
  const char* end_;
  size_t lines_ = 0;
  size_t record_start_lines_ = 0;
  std::vector<RawField> fields_;  // grows to the widest record, never shrinks
  size_t count_ = 0;
};

// Offset just past the last complete record of data[0, size) (that is, past a '\n' that
// ends a record), or 0 when there is none. `data` must start at a record start.
size_t last_record_end(const char* data, size_t size, const RecordFormat& format);

// The first record start at or after `from` in data[0, size) (data starts at a record
// start); size when there is none.
size_t record_start_from(const char* data, size_t size, size_t from, const RecordFormat& format);

}  // namespace tally
