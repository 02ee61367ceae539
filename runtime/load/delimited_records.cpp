#include "runtime/load/delimited_records.h"

#include <cstring>

namespace tally {

namespace {

char unescape_char(char c) {
  switch (c) {
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    case 'v':
      return '\v';
    default:
      return c;  // \\, \<delimiter> and any other character stand for themselves
  }
}

size_t count_quotes(const char* data, size_t size) {
  size_t n = 0;
  for (size_t i = 0; i < size; ++i) n += data[i] == '"';
  return n;
}

// A '\n' right after a backslash may be an escaped line break inside a text-format field;
// skipping such a candidate is always safe, as a later '\n' is a record end too.
bool is_text_record_end(const char* data, size_t at, const RecordFormat& format) {
  return !(format.backslash_escapes && at > 0 && data[at - 1] == '\\');
}

}  // namespace

std::string_view field_text(const RawField& field, const RecordFormat& format,
                            std::string& scratch) {
  if (!field.escaped) return field.raw;
  scratch.clear();
  std::string_view raw = field.raw;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (format.csv && raw[i] == '"') {
      ++i;  // "" inside quotes is one quote
    } else if (!format.csv && raw[i] == '\\' && i + 1 < raw.size()) {
      scratch.push_back(unescape_char(raw[++i]));
      continue;
    }
    scratch.push_back(raw[i]);
  }
  return scratch;
}

bool RecordReader::next(std::string& error) {
  count_ = 0;
  if (pos_ >= end_) return false;
  record_start_lines_ = lines_;
  for (;;) {
    if (format_.csv && pos_ < end_ && *pos_ == '"') {
      csv_quoted_field(error);
      if (!error.empty()) return true;
    } else {
      plain_field();
    }
    if (pos_ >= end_) return true;
    char c = *pos_++;
    if (c == '\n') {
      ++lines_;
      return true;
    }
    // c is the delimiter: another field follows.
  }
}

void RecordReader::plain_field() {
  const char* start = pos_;
  bool escaped = false;
  char delimiter = format_.delimiter;
  bool escapes = format_.backslash_escapes;
  while (pos_ < end_) {
    char c = *pos_;
    if (c == delimiter || c == '\n') break;
    if (escapes && c == '\\' && pos_ + 1 < end_) {
      escaped = true;
      if (pos_[1] == '\n') ++lines_;
      pos_ += 2;
      continue;
    }
    ++pos_;
  }
  const char* stop = pos_;
  if (stop > start && stop[-1] == '\r' && (stop == end_ || *stop == '\n')) --stop;
  add(std::string_view(start, static_cast<size_t>(stop - start)), false, escaped);
}

void RecordReader::csv_quoted_field(std::string& error) {
  const char* start = ++pos_;  // past the opening quote
  bool escaped = false;
  for (;;) {
    const char* quote =
        static_cast<const char*>(std::memchr(pos_, '"', static_cast<size_t>(end_ - pos_)));
    if (!quote) {
      error = "unterminated quoted CSV field";
      pos_ = end_;
      return;
    }
    for (const char* p = pos_; p < quote; ++p) lines_ += *p == '\n';
    if (quote + 1 < end_ && quote[1] == '"') {
      escaped = true;
      pos_ = quote + 2;
      continue;
    }
    add(std::string_view(start, static_cast<size_t>(quote - start)), true, escaped);
    pos_ = quote + 1;
    break;
  }
  if (pos_ < end_ && *pos_ == '\r' && pos_ + 1 < end_ && pos_[1] == '\n') ++pos_;
  if (pos_ < end_ && *pos_ != format_.delimiter && *pos_ != '\n') {
    error = "unexpected character after a closing quote of a CSV field";
  }
}

size_t last_record_end(const char* data, size_t size, const RecordFormat& format) {
  if (format.csv && std::memchr(data, '"', size)) {
    // Inside quotes a '\n' is data: a record ends at a '\n' after an even number of quotes.
    size_t quotes = 0, last = 0;
    for (size_t i = 0; i < size; ++i) {
      quotes += data[i] == '"';
      if (data[i] == '\n' && quotes % 2 == 0) last = i + 1;
    }
    return last;
  }
  for (size_t i = size; i > 0; --i) {
    if (data[i - 1] == '\n' && is_text_record_end(data, i - 1, format)) return i;
  }
  return 0;
}

size_t record_start_from(const char* data, size_t size, size_t from, const RecordFormat& format) {
  if (from == 0) return 0;
  bool quoted = format.csv && std::memchr(data, '"', size);
  size_t quotes = quoted ? count_quotes(data, from - 1) : 0;
  for (size_t i = from - 1; i < size; ++i) {
    if (quoted) quotes += data[i] == '"';
    if (data[i] != '\n') continue;
    if (quoted ? quotes % 2 == 0 : is_text_record_end(data, i, format)) return i + 1;
  }
  return size;
}

}  // namespace tally
